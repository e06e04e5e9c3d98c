package dev.tarn.catalog.system;

import static dev.tarn.catalog.system.SystemTableValues.field;

import dev.tarn.catalog.partition.PartitionNames;
import dev.tarn.format.Table;
import dev.tarn.format.read.TableFiles.BucketFile;
import java.util.ArrayList;
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
 * {@code t$partitions}: each partition with live files in the snapshot a query reads, by partition
 * text ({@code dt=2026-12-01}; one row with an empty text for an unpartitioned table), with what
 * its files add up to ({@link FileTotals}).
 */
final class PartitionsTable {

    static final RowType TYPE =
            SystemTableValues.rowType(
                    field("partition", DataTypes.STRING()),
                    field("record_count", DataTypes.BIGINT().notNull()),
                    field("file_size_in_bytes", DataTypes.BIGINT().notNull()),
                    field("file_count", DataTypes.BIGINT().notNull()),
                    field("last_update_time", SystemTableValues.time()));

    static List<RowData> rows(Table table) {
        List<BucketFile> files = SystemTableValues.liveFiles(table);
        Map<Path, Long> written = SystemTableValues.writeTimes(table, files);
        Map<String, FileTotals> byPartition = new TreeMap<>();
        for (BucketFile f : files) {
            String partition = PartitionNames.text(table.schema().partitionKeys(), f.partition());
            byPartition.computeIfAbsent(partition, p -> new FileTotals()).add(f, written);
        }
        List<RowData> rows = new ArrayList<>();
        byPartition.forEach(
                (partition, t) ->
                        rows.add(
                                GenericRowData.of(
                                        StringData.fromString(partition),
                                        t.records,
                                        t.bytes,
                                        t.files,
                                        SystemTableValues.timestamp(t.lastWritten))));
        return rows;
    }

    private PartitionsTable() {}
}
