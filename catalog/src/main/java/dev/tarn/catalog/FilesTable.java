package dev.tarn.catalog;

import static dev.tarn.catalog.SystemTableValues.field;

import dev.tarn.format.Table;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.read.TableFiles;
import dev.tarn.format.read.TableFiles.BucketFile;
import dev.tarn.format.read.TableFiles.KeyBounds;
import dev.tarn.format.schema.TableSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.function.IntFunction;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code t$files}: the live data files of the snapshot a query reads, bucket by bucket, with what
 * their manifest entries record. Keys are shown as {@code [v1, v2]} in primary-key order, column
 * statistics as {@code {col=value, ...}} over the columns of the schema the file was written with
 * ({@code null} where unknown). {@code creation_time} is the file's modification time.
 */
final class FilesTable {

    static final RowType TYPE =
            SystemTableValues.rowType(
                    field("partition", DataTypes.STRING()),
                    field("bucket", DataTypes.INT().notNull()),
                    field("file_path", DataTypes.STRING().notNull()),
                    field("file_format", DataTypes.STRING().notNull()),
                    field("schema_id", DataTypes.BIGINT().notNull()),
                    field("level", DataTypes.INT().notNull()),
                    field("record_count", DataTypes.BIGINT().notNull()),
                    field("file_size_in_bytes", DataTypes.BIGINT().notNull()),
                    field("min_key", DataTypes.STRING()),
                    field("max_key", DataTypes.STRING()),
                    field("null_value_counts", DataTypes.STRING().notNull()),
                    field("min_value_stats", DataTypes.STRING().notNull()),
                    field("max_value_stats", DataTypes.STRING().notNull()),
                    field("min_sequence_number", DataTypes.BIGINT()),
                    field("max_sequence_number", DataTypes.BIGINT()),
                    field("creation_time", SystemTableValues.time()));

    static List<RowData> rows(Table table) {
        List<BucketFile> files = SystemTableValues.liveFiles(table);
        Map<Path, Long> written = SystemTableValues.writeTimes(table, files);
        TableFiles keys = new TableFiles(table.context());
        Map<Long, TableSchema> schemas = new HashMap<>();
        List<RowData> rows = new ArrayList<>();
        for (BucketFile f : files) {
            DataFile file = f.file();
            TableSchema schema =
                    schemas.computeIfAbsent(
                            file.schemaId(), id -> table.schemaManager().schema(id));
            Optional<KeyBounds> bounds = keys.keyBounds(file);
            DataFile.ColumnStats stats = file.valueStats();
            rows.add(
                    GenericRowData.of(
                            StringData.fromString(
                                    PartitionNames.text(
                                            table.schema().partitionKeys(), f.partition())),
                            f.bucket(),
                            StringData.fromString(f.path().toString()),
                            StringData.fromString(format(file.fileName())),
                            file.schemaId(),
                            file.level(),
                            file.rowCount(),
                            file.fileSize(),
                            bounds.map(b -> StringData.fromString(b.min().toString())).orElse(null),
                            bounds.map(b -> StringData.fromString(b.max().toString())).orElse(null),
                            stats(schema, stats, i -> count(stats.nullCount(i))),
                            stats(schema, stats, stats::min),
                            stats(schema, stats, stats::max),
                            file.sequence().min(),
                            file.sequence().max(),
                            SystemTableValues.timestamp(written.get(f.path()))));
        }
        return rows;
    }

    /** The format a data file is in, by its extension ({@code data-<uuid>.parquet}). */
    private static String format(String fileName) {
        return fileName.substring(fileName.lastIndexOf('.') + 1);
    }

    private static Object count(long nulls) {
        return nulls < 0 ? null : nulls;
    }

    /** {@code {col=value, ...}} over the columns of {@code schema}, as far as the stats go. */
    static StringData stats(
            TableSchema schema, DataFile.ColumnStats stats, IntFunction<Object> value) {
        StringJoiner text = new StringJoiner(", ", "{", "}");
        int columns = Math.min(schema.fields().size(), stats.columnCount());
        for (int i = 0; i < columns; i++) {
            text.add(schema.fields().get(i).name() + "=" + value.apply(i));
        }
        return StringData.fromString(text.toString());
    }

    private FilesTable() {}
}
