package dev.tarn.format.ledger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/** The JSON of a {@link PendingCommit} (SPEC.md, "Pending commits"), versioned. */
final class PendingCommitJson {

    /** The only version this code writes; readers reject newer ones. */
    static final int VERSION = 1;

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private PendingCommitJson() {}

    static byte[] toBytes(PendingCommit record) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("version", VERSION);
        root.put("commitUser", record.user());
        root.put("checkpoint", record.checkpoint());
        root.put("writtenMillis", record.writtenMillis());
        ArrayNode committables = root.putArray("committables");
        record.committables()
                .forEach(
                        (id, files) -> {
                            ObjectNode committable = committables.addObject();
                            committable.put("checkpoint", id);
                            ArrayNode list = committable.putArray("files");
                            files.forEach(list::add);
                        });
        try {
            return MAPPER.writeValueAsBytes(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @throws IllegalArgumentException naming the reason if the bytes are no record of a supported
     *     version
     */
    static PendingCommit parse(byte[] bytes) {
        JsonNode root;
        try {
            root = MAPPER.readTree(bytes);
        } catch (IOException e) {
            throw new IllegalArgumentException("not JSON: " + e.getMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("not a JSON object");
        }
        int version = required(root, "version").asInt();
        if (version < 1 || version > VERSION) {
            throw new IllegalArgumentException(
                    "format version "
                            + version
                            + " is not supported (supported: 1 to "
                            + VERSION
                            + ")");
        }
        SortedMap<Long, List<String>> committables = new TreeMap<>();
        for (JsonNode committable : required(root, "committables")) {
            List<String> files = new ArrayList<>();
            for (JsonNode file : required(committable, "files")) {
                files.add(file.asText());
            }
            committables.put(required(committable, "checkpoint").asLong(), files);
        }
        return new PendingCommit(
                required(root, "commitUser").asText(),
                required(root, "checkpoint").asLong(),
                required(root, "writtenMillis").asLong(),
                committables);
    }

    private static JsonNode required(JsonNode node, String name) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            throw new IllegalArgumentException("field '" + name + "' is missing");
        }
        return value;
    }
}
