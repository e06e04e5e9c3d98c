package dev.tarn.catalog.statistics;

import dev.tarn.format.Table;
import dev.tarn.format.TableMetadata;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.read.TableFiles.BucketFile;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.schema.TableSchema.DataField;
import dev.tarn.format.snapshot.Snapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.flink.table.catalog.stats.CatalogColumnStatistics;
import org.apache.flink.table.catalog.stats.CatalogColumnStatisticsDataBase;
import org.apache.flink.table.catalog.stats.CatalogTableStatistics;

/**
 * Table and column statistics for Flink's planner, added up from what the latest snapshot's
 * manifests record about its live files; no data file is opened. Row counts are rows as stored: in
 * a primary-key table every version of a key a file holds, so an upper bound of the merged rows
 * until compaction. A file's column statistics are mapped to the current schema by field id (a
 * renamed column keeps them, a column a file lacks is all null in it, a widened column's bounds are
 * unknown); a column gets a null count or bounds only where every live file knows them.
 */
public final class CatalogStatistics {

    private CatalogStatistics() {}

    /** Rows, files and bytes of the live files in the partitions {@code partitions} accepts. */
    public static CatalogTableStatistics table(Table table, Predicate<Partition> partitions) {
        long rows = 0;
        long bytes = 0;
        int files = 0;
        for (BucketFile file : liveFiles(table, partitions)) {
            rows += file.file().rowCount();
            bytes += file.file().fileSize();
            files++;
        }
        return new CatalogTableStatistics(rows, files, bytes, bytes);
    }

    /**
     * Per column of the current schema, by name: its null count and, for numeric and date columns,
     * its smallest and largest value, over the live files in the partitions {@code partitions}
     * accepts. A column nothing is known about is left out.
     */
    public static CatalogColumnStatistics columns(Table table, Predicate<Partition> partitions) {
        List<DataField> fields = table.schema().fields();
        List<ColumnTotals> totals = new ArrayList<>();
        for (DataField field : fields) {
            totals.add(new ColumnTotals(field.type()));
        }
        Map<Long, Source[]> sourcesBySchema = new HashMap<>();
        for (BucketFile bucketFile : liveFiles(table, partitions)) {
            DataFile file = bucketFile.file();
            Source[] sources =
                    sourcesBySchema.computeIfAbsent(
                            file.schemaId(), id -> sources(table, fields, id));
            for (int i = 0; i < fields.size(); i++) {
                Source source = sources[i];
                if (source == null) {
                    totals.get(i).addAllNull(file.rowCount());
                } else {
                    totals.get(i).add(file, source.index(), source.sameType());
                }
            }
        }
        Map<String, CatalogColumnStatisticsDataBase> columns = new LinkedHashMap<>();
        for (int i = 0; i < fields.size(); i++) {
            String name = fields.get(i).name();
            totals.get(i).statistics().ifPresent(s -> columns.put(name, s));
        }
        return new CatalogColumnStatistics(columns);
    }

    /**
     * Where a column of the current schema is in a file's statistics.
     *
     * @param sameType false if its type changed since (then its bounds are of another type)
     */
    public record Source(int index, boolean sameType) {}

    /**
     * Per column of {@code fields} (the current schema's), its place in schema {@code schemaId} by
     * field id, or null if absent there (also for {@code $files}).
     */
    public static Source[] sources(Table table, List<DataField> fields, long schemaId) {
        TableSchema written = table.metadata().schema(schemaId);
        Source[] sources = new Source[fields.size()];
        for (int i = 0; i < fields.size(); i++) {
            for (int j = 0; j < written.fields().size(); j++) {
                DataField old = written.fields().get(j);
                if (old.id() == fields.get(i).id()) {
                    boolean sameType =
                            old.type().copy(true).equals(fields.get(i).type().copy(true));
                    sources[i] = new Source(j, sameType);
                }
            }
        }
        return sources;
    }

    private static List<BucketFile> liveFiles(Table table, Predicate<Partition> partitions) {
        TableMetadata metadata = table.metadata();
        Optional<Snapshot> latest = metadata.latestSnapshot();
        if (latest.isEmpty()) {
            return List.of();
        }
        return metadata.files().liveFiles(latest.get()).stream()
                .filter(f -> partitions.test(f.partition()))
                .toList();
    }
}
