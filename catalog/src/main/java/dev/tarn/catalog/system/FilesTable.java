package dev.tarn.catalog.system;

import static dev.tarn.catalog.system.SystemTableValues.field;

import dev.tarn.catalog.partition.PartitionNames;
import dev.tarn.catalog.statistics.CatalogStatistics;
import dev.tarn.catalog.statistics.CatalogStatistics.Source;
import dev.tarn.format.Table;
import dev.tarn.format.TableMetadata.FileVector;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DataFile.ColumnStats;
import dev.tarn.format.read.TableFiles;
import dev.tarn.format.read.TableFiles.BucketFile;
import dev.tarn.format.read.TableFiles.KeyBounds;
import dev.tarn.format.schema.TableSchema.DataField;
import dev.tarn.format.snapshot.Snapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.function.BiFunction;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code t$files}: the live data files of the snapshot a query reads, bucket by bucket, with what
 * their manifest entries record. Keys are shown as {@code [v1, v2]} in primary-key order, column
 * statistics as {@code {col=value, ...}} over every column of the current schema, found in the
 * file's by field id (a renamed column under its new name, with what the file recorded for it) and
 * {@code null} where unknown: a column added after the file was written has no null count and no
 * bounds. {@code creation_time} is the file's modification time. {@code deleted_record_count},
 * after Paimon's columns, is Tarn's: the rows the file's deletion vector deletes (0 without one).
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
                    field("creation_time", SystemTableValues.time()),
                    field("deleted_record_count", DataTypes.BIGINT().notNull()));

    static List<RowData> rows(Table table) {
        Snapshot snapshot = SystemTableValues.snapshot(table);
        List<BucketFile> files = SystemTableValues.liveFiles(table, snapshot);
        Map<Path, Long> deleted = new HashMap<>();
        for (FileVector v : SystemTableValues.deletionVectors(table, snapshot)) {
            deleted.put(v.dataFile(), v.vector().cardinality());
        }
        Map<Path, Long> written = SystemTableValues.writeTimes(table, files);
        TableFiles keys = table.metadata().files();
        List<DataField> fields = table.schema().fields();
        Map<Long, Source[]> sourcesBySchema = new HashMap<>();
        List<RowData> rows = new ArrayList<>();
        for (BucketFile f : files) {
            DataFile file = f.file();
            Source[] sources =
                    sourcesBySchema.computeIfAbsent(
                            file.schemaId(), id -> CatalogStatistics.sources(table, fields, id));
            Columns columns = new Columns(fields, sources, file.valueStats());
            Optional<KeyBounds> bounds = keys.keyBounds(file);
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
                            columns.text(FilesTable::nullCount),
                            columns.text(ColumnStats::min),
                            columns.text(ColumnStats::max),
                            file.sequence().min(),
                            file.sequence().max(),
                            SystemTableValues.timestamp(written.get(f.path())),
                            deleted.getOrDefault(f.path(), 0L)));
        }
        return rows;
    }

    /** The format a data file is in, by its extension ({@code data-<uuid>.parquet}). */
    private static String format(String fileName) {
        return fileName.substring(fileName.lastIndexOf('.') + 1);
    }

    /** A column's null count, or null where the file's statistics do not know it. */
    private static Object nullCount(ColumnStats stats, int column) {
        long nulls = stats.nullCount(column);
        return nulls < 0 ? null : nulls;
    }

    /** A file's statistics by the columns of the current schema. */
    private record Columns(List<DataField> fields, Source[] sources, ColumnStats stats) {

        /**
         * {@code {col=value, ...}} over every column, {@code null} where the file records nothing
         * (a column it predates).
         */
        StringData text(BiFunction<ColumnStats, Integer, Object> value) {
            StringJoiner text = new StringJoiner(", ", "{", "}");
            for (int i = 0; i < fields.size(); i++) {
                Source source = sources[i];
                Object v = null;
                if (source != null && source.index() < stats.columnCount()) {
                    v = value.apply(stats, source.index());
                }
                text.add(fields.get(i).name() + "=" + v);
            }
            return StringData.fromString(text.toString());
        }
    }

    private FilesTable() {}
}
