package dev.tarn.catalog.system;

import static dev.tarn.catalog.system.SystemTableValues.field;

import dev.tarn.catalog.partition.PartitionNames;
import dev.tarn.format.Table;
import dev.tarn.format.read.TableFiles.BucketFile;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code t$buckets}: each bucket with live files in the snapshot a query reads, by partition text
 * and bucket, with what its files add up to ({@link FileTotals}); {@code level0_file_count} is how
 * many of them await compaction into a sorted run. An unbucketed append table has bucket 0 only.
 */
final class BucketsTable {

    static final RowType TYPE =
            SystemTableValues.rowType(
                    field("partition", DataTypes.STRING()),
                    field("bucket", DataTypes.INT().notNull()),
                    field("record_count", DataTypes.BIGINT().notNull()),
                    field("file_size_in_bytes", DataTypes.BIGINT().notNull()),
                    field("file_count", DataTypes.BIGINT().notNull()),
                    field("level0_file_count", DataTypes.BIGINT().notNull()),
                    field("last_update_time", SystemTableValues.time()));

    /** A bucket by its partition's text and its number. */
    private record Key(String partition, int bucket) {}

    static List<RowData> rows(Table table) {
        List<BucketFile> files = SystemTableValues.liveFiles(table);
        Map<Path, Long> written = SystemTableValues.writeTimes(table, files);
        Map<Key, FileTotals> byBucket =
                new TreeMap<>(Comparator.comparing(Key::partition).thenComparing(Key::bucket));
        for (BucketFile f : files) {
            String partition = PartitionNames.text(table.schema().partitionKeys(), f.partition());
            byBucket.computeIfAbsent(new Key(partition, f.bucket()), k -> new FileTotals())
                    .add(f, written);
        }
        List<RowData> rows = new ArrayList<>();
        byBucket.forEach(
                (key, t) ->
                        rows.add(
                                GenericRowData.of(
                                        StringData.fromString(key.partition()),
                                        key.bucket(),
                                        t.records,
                                        t.bytes,
                                        t.files,
                                        t.level0Files,
                                        SystemTableValues.timestamp(t.lastWritten))));
        return rows;
    }

    private BucketsTable() {}
}
