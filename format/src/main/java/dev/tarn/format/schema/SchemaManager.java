package dev.tarn.format.schema;

import dev.tarn.format.io.FileIO;
import dev.tarn.format.io.TablePaths;
import dev.tarn.format.snapshot.SnapshotCommit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.OptionalLong;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;

/**
 * The schema files of one table, {@code <table>/schema/schema-<id>}. Schema files are never changed
 * once written; a new version is created exclusively, so two concurrent changes cannot both win.
 */
public final class SchemaManager {

    private static final String PREFIX = "schema-";

    private final FileIO io;
    private final Path dir;
    private final String table;
    private final SnapshotCommit publisher;

    /**
     * @param publisher creates new schema files exclusively, as snapshot files are
     */
    public SchemaManager(FileIO io, TablePaths paths, String table, SnapshotCommit publisher) {
        this.io = io;
        this.dir = paths.schemaDir();
        this.table = table;
        this.publisher = publisher;
    }

    public Path path(long id) {
        return new Path(dir, PREFIX + id);
    }

    /** The highest schema id present, if any. */
    public OptionalLong latestId() {
        try {
            OptionalLong latest = OptionalLong.empty();
            for (FileStatus status : io.list(dir)) {
                String name = status.getPath().getName();
                if (name.startsWith(PREFIX)) {
                    try {
                        long id = Long.parseLong(name.substring(PREFIX.length()));
                        if (latest.isEmpty() || id > latest.getAsLong()) {
                            latest = OptionalLong.of(id);
                        }
                    } catch (NumberFormatException ignored) {
                        // Not a schema file (e.g. a temporary file); skip it.
                    }
                }
            }
            return latest;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot list schemas of table " + table + " in " + dir, e);
        }
    }

    public TableSchema latest() {
        OptionalLong id = latestId();
        if (id.isEmpty()) {
            throw new IllegalStateException("Table " + table + " has no schema file in " + dir);
        }
        return schema(id.getAsLong());
    }

    public TableSchema schema(long id) {
        Path path = path(id);
        byte[] bytes;
        try {
            bytes = io.readAllBytes(path);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot read schema " + id + " of table " + table + " from " + path, e);
        }
        TableSchema schema = SchemaJson.fromJson(bytes, path.toString());
        if (schema.id() != id) {
            throw new IllegalArgumentException(
                    "Corrupt schema file " + path + ": it holds schema id " + schema.id());
        }
        return schema;
    }

    /**
     * Checks that files a writer prepared under {@code writer} may be committed to the table as its
     * schemas are now ({@link WriterCompatibility}). Cheap when no schema above {@code checked}
     * exists: one existence check.
     *
     * @param checked the highest schema id already found compatible (at first, the writer's)
     * @return the highest schema id now found compatible
     * @throws IllegalStateException naming the table, the writer's schema id, the latest id and why
     */
    public long checkWriter(TableSchema writer, long checked) {
        try {
            if (!io.exists(path(checked + 1))) {
                return checked;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot look for schema " + (checked + 1) + " of table " + table, e);
        }
        TableSchema latest = latest();
        TableSchema stored;
        try {
            stored = io.exists(path(writer.id())) ? schema(writer.id()) : null;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot look for schema " + writer.id() + " of table " + table, e);
        }
        String reason = WriterCompatibility.refusal(writer, stored, latest);
        if (reason != null) {
            throw new IllegalStateException(
                    String.format(
                            "Cannot commit to table %s files written under schema %d: the latest"
                                    + " schema is %d, and %s. Submit the job again so it writes"
                                    + " under the latest schema.",
                            table, writer.id(), latest.id(), reason));
        }
        return latest.id();
    }

    /**
     * Writes {@code schema} as a new version.
     *
     * @throws IllegalStateException if another writer created that version first
     */
    public void commit(TableSchema schema) {
        // Validates every option before anything is written.
        TableConfig.of(table, schema.options());
        try {
            if (!publisher.publish(path(schema.id()), SchemaJson.toJson(schema))) {
                throw new IllegalStateException(
                        "Cannot commit schema "
                                + schema.id()
                                + " of table "
                                + table
                                + ": another change created it first; retry");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot write schema " + schema.id() + " of table " + table, e);
        }
    }
}
