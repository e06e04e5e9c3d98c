package dev.tarn.format.deletion;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The JSON payload of an index file's footer: Puffin's {@code FileMetadata} with one {@code
 * deletion-vector-v1} blob entry per vector (SPEC.md, "Deletion vectors").
 */
final class PuffinFooter {

    static final String BLOB_TYPE = "deletion-vector-v1";
    static final String DATA_FILE = "referenced-data-file";
    static final String CARDINALITY = "cardinality";

    /** Iceberg's row position column ({@code _pos}), the field Iceberg's writer names for DVs. */
    static final int ROW_POSITION_FIELD_ID = Integer.MAX_VALUE - 2;

    private static final ObjectMapper MAPPER = new ObjectMapper();

    static byte[] toJson(List<DeletionVectorBlob> blobs) {
        ObjectNode root = MAPPER.createObjectNode();
        ArrayNode array = root.putArray("blobs");
        for (DeletionVectorBlob blob : blobs) {
            ObjectNode node = array.addObject();
            node.put("type", BLOB_TYPE);
            node.putArray("fields").add(ROW_POSITION_FIELD_ID);
            // Iceberg's rule for deletion vectors: a reader takes both from the snapshot.
            node.put("snapshot-id", -1L);
            node.put("sequence-number", -1L);
            node.put("offset", blob.offset());
            node.put("length", blob.length());
            ObjectNode properties = node.putObject("properties");
            properties.put(DATA_FILE, blob.dataFile());
            properties.put(CARDINALITY, Long.toString(blob.cardinality()));
        }
        root.putObject("properties").put("created-by", "Tarn");
        try {
            return MAPPER.writeValueAsBytes(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot serialize an index file footer", e);
        }
    }

    /**
     * The blobs the footer payload {@code json} lists, in its order.
     *
     * @param blobsEnd the offset where the footer starts; every blob must end at or before it
     * @throws IllegalArgumentException naming the blob, the field and the value that is wrong
     */
    static List<DeletionVectorBlob> parse(byte[] json, long blobsEnd) throws IOException {
        JsonNode root = MAPPER.readTree(json);
        if (root == null || !root.isObject() || !root.path("blobs").isArray()) {
            throw new IllegalArgumentException("the footer is not a JSON object with 'blobs'");
        }
        List<DeletionVectorBlob> blobs = new ArrayList<>();
        Set<String> dataFiles = new HashSet<>();
        for (JsonNode node : root.get("blobs")) {
            DeletionVectorBlob blob = blob(node, blobs.size());
            if (blob.end() > blobsEnd) {
                throw new IllegalArgumentException(
                        "blob "
                                + blobs.size()
                                + " ends at "
                                + blob.end()
                                + ", past the footer at "
                                + blobsEnd);
            }
            if (!dataFiles.add(blob.dataFile())) {
                throw new IllegalArgumentException(
                        "data file " + blob.dataFile() + " has more than one deletion vector");
            }
            blobs.add(blob);
        }
        return List.copyOf(blobs);
    }

    private static DeletionVectorBlob blob(JsonNode node, int index) {
        String type = node.path("type").asText(null);
        if (!BLOB_TYPE.equals(type)) {
            throw new IllegalArgumentException(
                    "blob " + index + " has type '" + type + "', expected '" + BLOB_TYPE + "'");
        }
        if (node.hasNonNull("compression-codec")) {
            throw new IllegalArgumentException(
                    "blob "
                            + index
                            + " has compression-codec '"
                            + node.get("compression-codec").asText()
                            + "', but deletion vectors are stored uncompressed");
        }
        JsonNode properties = node.path("properties");
        String dataFile = property(properties, DATA_FILE, index);
        String cardinality = property(properties, CARDINALITY, index);
        try {
            return new DeletionVectorBlob(
                    dataFile,
                    number(node, "offset", index),
                    number(node, "length", index),
                    Long.parseLong(cardinality));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "blob " + index + " has cardinality '" + cardinality + "', not a number");
        }
    }

    private static String property(JsonNode properties, String key, int index) {
        JsonNode value = properties.get(key);
        if (value == null || !value.isTextual()) {
            throw new IllegalArgumentException(
                    "blob " + index + " has no string property '" + key + "', found " + value);
        }
        return value.asText();
    }

    private static long number(JsonNode node, String field, int index) {
        JsonNode value = node.get(field);
        if (value == null || !value.isIntegralNumber() || !value.canConvertToLong()) {
            throw new IllegalArgumentException(
                    "blob " + index + " has " + field + " " + value + ", not a number");
        }
        return value.asLong();
    }

    private PuffinFooter() {}
}
