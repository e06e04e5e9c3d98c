package dev.tarn.format;

import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.IndexEntry;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.read.TableFiles;
import dev.tarn.format.schema.SchemaManager;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.SnapshotManager;
import dev.tarn.format.snapshot.SnapshotReader;
import dev.tarn.format.snapshot.Tags;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.flink.core.fs.Path;

/**
 * A read-only view of a table's metadata, for those that show it rather than read rows (the
 * catalog's system tables and statistics): its snapshots, schemas, tags, partitions, the files of a
 * snapshot and their deletion vectors. Nothing here writes. Each call reads the table as it is
 * then; a view holds no open resources.
 */
public final class TableMetadata {

    /** A schema version of the table and when its file was written. */
    public record StoredSchema(TableSchema schema, long writtenMillis) {}

    /**
     * The deletion vector of one live data file of a snapshot (SPEC.md, "Deletion vectors").
     *
     * @param dataFile the data file, as the snapshot's live files name it
     * @param indexFile the index file the vector lies in
     * @param vector where in the index file, and how many rows it deletes
     */
    public record FileVector(
            Partition partition, int bucket, Path dataFile, Path indexFile, DeletionFile vector) {}

    private final TableContext table;

    TableMetadata(TableContext table) {
        this.table = table;
    }

    /** The newest snapshot id, if the table has a snapshot. */
    public OptionalLong latestSnapshotId() {
        return manager().latestId();
    }

    /** The oldest snapshot id still there, if the table has a snapshot. */
    public OptionalLong earliestSnapshotId() {
        return manager().earliestId();
    }

    /** The newest snapshot, if the table has one. */
    public Optional<Snapshot> latestSnapshot() {
        return reader().latest();
    }

    /**
     * @throws IllegalArgumentException naming the table and the id if there is no such snapshot
     */
    public Snapshot snapshot(long id) {
        return manager().snapshot(id);
    }

    public boolean snapshotExists(long id) {
        return manager().exists(id);
    }

    /**
     * The newest snapshot committed at or before {@code timeMillis} ({@code FOR SYSTEM_TIME AS
     * OF}).
     *
     * @throws IllegalArgumentException naming the table and the time if every snapshot is newer, or
     *     there is none
     */
    public Snapshot snapshotAtOrBefore(long timeMillis) {
        return manager().atOrBefore(timeMillis);
    }

    /** Every snapshot still there, oldest first; empty for a table without snapshots. */
    public List<Snapshot> snapshots() {
        SnapshotManager snapshots = manager();
        OptionalLong earliest = snapshots.earliestId();
        OptionalLong latest = snapshots.latestId();
        List<Snapshot> all = new ArrayList<>();
        if (earliest.isEmpty() || latest.isEmpty()) {
            return all;
        }
        for (long id = earliest.getAsLong(); id <= latest.getAsLong(); id++) {
            if (snapshots.exists(id)) {
                all.add(snapshots.snapshot(id));
            }
        }
        return all;
    }

    /**
     * Schema version {@code id} of the table (that a data file was written with, say).
     *
     * @throws IllegalArgumentException naming the table and the id if there is no such schema
     */
    public TableSchema schema(long id) {
        return table.schema(id);
    }

    /** Every schema version still there, oldest first, with when its file was written. */
    public List<StoredSchema> schemas() {
        SchemaManager schemas = table.schemaManager();
        OptionalLong latest = schemas.latestId();
        List<StoredSchema> all = new ArrayList<>();
        for (long id = 0; latest.isPresent() && id <= latest.getAsLong(); id++) {
            Path path = schemas.path(id);
            try {
                if (table.io().exists(path)) {
                    long written = table.io().status(path).getModificationTime();
                    all.add(new StoredSchema(schemas.schema(id), written));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "Cannot read schema " + id + " of table " + table.name(), e);
            }
        }
        return all;
    }

    /** The table's tags. */
    public List<Tags.Tag> tags() {
        return table.tags().list();
    }

    /** The partitions with a live file in {@code snapshot}, in manifest order. */
    public Set<Partition> partitions(Snapshot snapshot) {
        return reader().partitions(snapshot);
    }

    /**
     * The deletion vectors of {@code snapshot}'s live files, in its index manifest's order; none
     * for a snapshot without one.
     *
     * @throws UncheckedIOException naming the index manifest if it is missing or corrupt
     */
    public List<FileVector> deletionVectors(Snapshot snapshot) {
        List<FileVector> vectors = new ArrayList<>();
        for (IndexEntry e : reader().indexEntries(snapshot)) {
            vectors.add(
                    new FileVector(
                            e.partition(),
                            e.bucket(),
                            new Path(table.bucketPath(e.partition(), e.bucket()), e.dataFile()),
                            table.indexFiles().path(e.vector().indexFile()),
                            e.vector()));
        }
        return vectors;
    }

    /**
     * What the snapshots' manifests record of files: a snapshot's manifests, its live files, its
     * changelog's rows and a file's key range. A new view per call; it keeps the schemas it reads.
     */
    public TableFiles files() {
        return new TableFiles(table);
    }

    private SnapshotManager manager() {
        return table.snapshotManager();
    }

    private SnapshotReader reader() {
        return table.snapshotReader();
    }
}
