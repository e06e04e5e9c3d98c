package dev.tarn.format.snapshot;

import static dev.tarn.format.snapshot.SnapshotJson.required;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.io.TablePaths;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;

/**
 * The consumers of a table (SPEC.md, "Consumers"): for each consumer id, the next snapshot a
 * streaming reader with that id needs, so that a new job with the id starts there and expiration
 * keeps what it still needs. One job records under one id; a record replaces the previous one
 * atomically, so a reader sees the old or the new position, never a torn one.
 */
public final class Consumers {

    /** A consumer's record: the next snapshot it needs, and when it last advanced. */
    public record Consumer(String id, long nextSnapshotId, long updatedMillis) {}

    private static final String PREFIX = "consumer-";

    /** The only version this code writes; readers reject newer ones. */
    private static final int VERSION = 1;

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final FileIO io;
    private final TablePaths paths;
    private final String table;

    public Consumers(FileIO io, TablePaths paths, String table) {
        this.io = io;
        this.paths = paths;
        this.table = table;
    }

    /**
     * The record of consumer {@code id}, if it has one.
     *
     * @throws IllegalArgumentException naming the file if it is corrupt
     */
    public Optional<Consumer> get(String id) {
        Path path = path(id);
        byte[] bytes;
        try {
            bytes = io.readAllBytes(path);
        } catch (FileNotFoundException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot read consumer '" + id + "' of table " + table + " from " + path, e);
        }
        return Optional.of(parse(id, bytes, path));
    }

    /** Records that consumer {@code id} needs snapshot {@code nextSnapshotId} next. */
    public void record(String id, long nextSnapshotId, long nowMillis) throws IOException {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("version", VERSION);
        root.put("nextSnapshot", nextSnapshotId);
        root.put("updatedMillis", nowMillis);
        io.overwrite(path(id), MAPPER.writeValueAsBytes(root));
    }

    /** Deletes the record of consumer {@code id}; a record already gone is no error. */
    public void delete(String id) throws IOException {
        io.delete(path(id), false);
    }

    /** Every consumer of the table, in no particular order. */
    public List<Consumer> all() throws IOException {
        List<Consumer> all = new ArrayList<>();
        for (FileStatus status : io.list(paths.consumerDir())) {
            String name = status.getPath().getName();
            if (name.startsWith(PREFIX)) {
                get(name.substring(PREFIX.length())).ifPresent(all::add);
            }
        }
        return all;
    }

    private Path path(String id) {
        return new Path(paths.consumerDir(), PREFIX + id);
    }

    private Consumer parse(String id, byte[] bytes, Path path) {
        try {
            JsonNode root = MAPPER.readTree(bytes);
            if (root == null || !root.isObject()) {
                throw new IllegalArgumentException("not a JSON object");
            }
            int version = required(root, "version").asInt();
            if (version > VERSION) {
                throw new IllegalArgumentException(
                        "format version " + version + " is newer than supported " + VERSION);
            }
            return new Consumer(
                    id,
                    required(root, "nextSnapshot").asLong(),
                    required(root, "updatedMillis").asLong());
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    String.format(
                            "Corrupt consumer file %s of table %s: %s",
                            path, table, e.getMessage()),
                    e);
        }
    }
}
