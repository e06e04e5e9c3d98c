package dev.tarn.format.snapshot;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tarn.format.snapshot.Snapshot.CommitKind;

/** Reads and writes snapshot files (SPEC.md, "Snapshot files"). */
final class SnapshotJson {

    /** The only version this code writes; readers reject newer ones. */
    static final int VERSION = 1;

    private static final ObjectMapper MAPPER = new ObjectMapper();

    public static byte[] toJson(Snapshot s) {
        return bytes(toNode(s), s.id());
    }

    /** Pretty-printed bytes of {@code root}, a snapshot's JSON object or one built on it. */
    static byte[] bytes(ObjectNode root, long id) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot serialize snapshot " + id, e);
        }
    }

    /** The JSON object of snapshot {@code s}; tag files add their fields to it. */
    static ObjectNode toNode(Snapshot s) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("version", VERSION);
        root.put("id", s.id());
        root.put("schemaId", s.schemaId());
        root.put("baseManifestList", s.baseManifestList());
        root.put("deltaManifestList", s.deltaManifestList());
        if (s.changelogManifestList() != null) {
            root.put("changelogManifestList", s.changelogManifestList());
        }
        if (s.indexManifest() != null) {
            root.put("indexManifest", s.indexManifest());
        }
        root.put("commitUser", s.commit().user());
        root.put("commitIdentifier", s.commit().identifier());
        root.put("commitKind", s.commit().kind().name());
        root.put("timeMillis", s.commit().timeMillis());
        if (s.commit().watermark() != null) {
            root.put("watermark", s.commit().watermark());
        }
        root.put("totalRecordCount", s.records().total());
        root.put("deltaRecordCount", s.records().delta());
        return root;
    }

    /**
     * @param source names the file in error messages
     * @throws IllegalArgumentException if the content is not a complete snapshot file
     */
    public static Snapshot fromJson(byte[] json, String source) {
        try {
            return fromNode(tree(json));
        } catch (java.io.IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "Corrupt snapshot file " + source + ": " + e.getMessage(), e);
        }
    }

    /** The JSON object in {@code json}; fails if it is none. */
    static JsonNode tree(byte[] json) throws java.io.IOException {
        JsonNode root = MAPPER.readTree(json);
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("not a JSON object");
        }
        return root;
    }

    /**
     * The snapshot of a snapshot file's (or tag file's) JSON object.
     *
     * @throws IllegalArgumentException naming the field that is missing or the version
     */
    static Snapshot fromNode(JsonNode root) {
        int version = required(root, "version").asInt();
        if (version > VERSION) {
            throw new IllegalArgumentException(
                    "format version " + version + " is newer than supported " + VERSION);
        }
        JsonNode watermark = root.get("watermark");
        JsonNode changelog = root.get("changelogManifestList");
        JsonNode index = root.get("indexManifest");
        return new Snapshot(
                required(root, "id").asLong(),
                required(root, "schemaId").asLong(),
                required(root, "baseManifestList").asText(),
                required(root, "deltaManifestList").asText(),
                new Snapshot.Commit(
                        required(root, "commitUser").asText(),
                        required(root, "commitIdentifier").asLong(),
                        CommitKind.valueOf(required(root, "commitKind").asText()),
                        required(root, "timeMillis").asLong(),
                        watermark == null || watermark.isNull() ? null : watermark.asLong()),
                new Snapshot.RecordCounts(
                        required(root, "totalRecordCount").asLong(),
                        required(root, "deltaRecordCount").asLong()),
                changelog == null || changelog.isNull() ? null : changelog.asText(),
                index == null || index.isNull() ? null : index.asText());
    }

    /** The field {@code name} of {@code node}; absent and JSON null alike are missing. */
    static JsonNode required(JsonNode node, String name) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            throw new IllegalArgumentException("missing field '" + name + "'");
        }
        return value;
    }

    private SnapshotJson() {}
}
