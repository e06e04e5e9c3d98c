package dev.tarn.format.read;

import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.ManifestList.ManifestFileMeta;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.table.TableContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * A read-only view of what a snapshot's metadata records, for those that show it rather than read
 * rows (the catalog's system tables): the manifests that make it up, its live files with their
 * buckets, the rows of its changelog, and a file's key range as values. Everything is read through
 * the {@link dev.tarn.format.snapshot.SnapshotReader}; nothing here writes. Not thread-safe: it
 * keeps the schemas it has read, which never change once written.
 */
public final class TableFiles {

    /** A manifest of a snapshot, as its manifest list records it. */
    public record ListedFile(
            String fileName, long fileSize, long addedFiles, long deletedFiles, long schemaId) {}

    /** A live data file of a snapshot, in bucket {@code bucket} of {@code partition}. */
    public record BucketFile(Partition partition, int bucket, DataFile file, Path path) {}

    /** A file's smallest and largest primary key, as Flink internal values in key order. */
    public record KeyBounds(List<Object> min, List<Object> max) {}

    private final TableContext table;
    private final Map<Long, TableSchema> schemas = new HashMap<>();

    public TableFiles(TableContext table) {
        this.table = table;
    }

    /** The manifests of {@code snapshot}: those of its base, then those of its delta. */
    public List<ListedFile> manifests(Snapshot snapshot) {
        List<ListedFile> files = new ArrayList<>();
        for (ManifestFileMeta meta : table.snapshotReader().manifests(snapshot)) {
            files.add(
                    new ListedFile(
                            meta.fileName(),
                            meta.fileSize(),
                            meta.addedFiles(),
                            meta.deletedFiles(),
                            meta.schemaId()));
        }
        return files;
    }

    /** The live files of {@code snapshot}, grouped by bucket in the order they were added. */
    public List<BucketFile> liveFiles(Snapshot snapshot) {
        List<BucketFile> files = new ArrayList<>();
        table.snapshotReader()
                .filesByBucket(snapshot)
                .forEach(
                        (bucket, entries) -> {
                            Path dir = table.bucketPath(bucket);
                            for (ManifestEntry e : entries) {
                                files.add(
                                        new BucketFile(
                                                e.partition(),
                                                e.bucket(),
                                                e.file(),
                                                new Path(dir, e.file().fileName())));
                            }
                        });
        return files;
    }

    /**
     * The rows of the changelog files {@code snapshot} stored, or null if it stored none (it has no
     * changelog manifest list).
     */
    @Nullable
    public Long changelogRecords(Snapshot snapshot) {
        if (snapshot.changelogManifestList() == null) {
            return null;
        }
        long rows = 0;
        for (ManifestEntry e : table.snapshotReader().changelog(snapshot)) {
            rows += e.file().rowCount();
        }
        return rows;
    }

    /**
     * A file's key range as values (SPEC.md, "Manifest body": each bound a binary row of the
     * primary-key columns of the schema the file was written with); empty for a file without one.
     */
    public Optional<KeyBounds> keyBounds(DataFile file) {
        if (file.keyRange() == null) {
            return Optional.empty();
        }
        TableSchema schema =
                schemas.computeIfAbsent(file.schemaId(), id -> table.schemaManager().schema(id));
        List<LogicalType> types = new ArrayList<>();
        for (String key : schema.primaryKeys()) {
            types.add(schema.fieldType(key));
        }
        return Optional.of(
                new KeyBounds(
                        values(file.keyRange().min(), types),
                        values(file.keyRange().max(), types)));
    }

    private static List<Object> values(byte[] bytes, List<LogicalType> types) {
        BinaryRowData row = new BinaryRowData(types.size());
        row.pointTo(MemorySegmentFactory.wrap(bytes), 0, bytes.length);
        List<Object> values = new ArrayList<>(types.size());
        for (int i = 0; i < types.size(); i++) {
            values.add(RowData.createFieldGetter(types.get(i), i).getFieldOrNull(row));
        }
        return values;
    }
}
