package dev.tarn.catalog.system;

import dev.tarn.format.Table;
import dev.tarn.format.TableMetadata.FileVector;
import dev.tarn.format.read.TableFiles.BucketFile;
import dev.tarn.format.snapshot.Snapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;

/**
 * The values the metadata system tables share: their column declarations, times as Flink
 * timestamps, and the live files of the snapshot a query reads with the time each was written and
 * their deletion vectors. Times are wall-clock times of the planning JVM's time zone, as Apache
 * Paimon shows them.
 */
final class SystemTableValues {

    /** A system table's columns. */
    static RowType rowType(RowType.RowField... fields) {
        return new RowType(false, List.of(fields));
    }

    static RowType.RowField field(String name, DataType type) {
        return new RowType.RowField(name, type.getLogicalType());
    }

    /** The type of the tables' times: milliseconds, as Apache Paimon declares them. */
    static DataType time() {
        return DataTypes.TIMESTAMP(3);
    }

    @Nullable
    static TimestampData timestamp(@Nullable Long millis) {
        if (millis == null) {
            return null;
        }
        return TimestampData.fromLocalDateTime(
                LocalDateTime.ofInstant(Instant.ofEpochMilli(millis), ZoneId.systemDefault()));
    }

    /**
     * The snapshot a query of {@code table} reads: the latest, or the one its {@code
     * scan.snapshot-id} or {@code scan.timestamp-millis} names; null without snapshots.
     */
    @Nullable
    static Snapshot snapshot(Table table) {
        return table.newScan().resolveSnapshot();
    }

    /** The live files of {@link #snapshot}; none without snapshots. */
    static List<BucketFile> liveFiles(Table table) {
        return liveFiles(table, snapshot(table));
    }

    /** The live files of {@code snapshot}; none for null (no snapshot). */
    static List<BucketFile> liveFiles(Table table, @Nullable Snapshot snapshot) {
        return snapshot == null ? List.of() : table.metadata().files().liveFiles(snapshot);
    }

    /** The deletion vectors of {@code snapshot}'s live files; none for null (no snapshot). */
    static List<FileVector> deletionVectors(Table table, @Nullable Snapshot snapshot) {
        return snapshot == null ? List.of() : table.metadata().deletionVectors(snapshot);
    }

    /**
     * When each of {@code files} was written: its modification time, from one listing of each
     * bucket directory (the manifests do not record it). A file the listing misses has none.
     */
    static Map<Path, Long> writeTimes(Table table, List<BucketFile> files) {
        Set<Path> dirs = new HashSet<>();
        for (BucketFile file : files) {
            dirs.add(file.path().getParent());
        }
        Map<Path, Long> times = new HashMap<>();
        for (Path dir : new ArrayList<>(dirs)) {
            try {
                for (FileStatus status : table.io().list(dir)) {
                    times.put(
                            new Path(dir, status.getPath().getName()),
                            status.getModificationTime());
                }
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "Cannot list files of table " + table.name() + " in " + dir, e);
            }
        }
        return times;
    }

    private SystemTableValues() {}
}
