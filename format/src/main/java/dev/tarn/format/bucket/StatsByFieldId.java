package dev.tarn.format.bucket;

import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DataFile.ColumnStats;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.schema.TableSchema.DataField;

/**
 * A file's column statistics, recorded by the columns of the schema it was written under, as
 * statistics of a scan's schema by field id: a renamed or moved column keeps its statistics; a
 * column the file lacks is all null in it, or all its default (as a read returns it); a widened
 * column's bounds are unknown (its bounds are values of the old type).
 */
final class StatsByFieldId {

    /** Per column of the scan's schema: its index in the file's schema, -1 if absent. */
    private final int[] sources;

    /** Per column of the scan's schema: whether its type is the file's, ignoring nullability. */
    private final boolean[] sameType;

    /** Per column of the scan's schema the file lacks: its default, or null. */
    private final Object[] defaults;

    StatsByFieldId(TableSchema scan, TableSchema file) {
        int arity = scan.fields().size();
        this.sources = new int[arity];
        this.sameType = new boolean[arity];
        this.defaults = new Object[arity];
        for (int i = 0; i < arity; i++) {
            DataField f = scan.fields().get(i);
            sources[i] = -1;
            for (int j = 0; j < file.fields().size(); j++) {
                DataField written = file.fields().get(j);
                if (written.id() == f.id()) {
                    sources[i] = j;
                    sameType[i] = written.type().copy(true).equals(f.type().copy(true));
                }
            }
            if (sources[i] < 0) {
                defaults[i] = scan.defaultValue(f.name());
            }
        }
    }

    /** {@code file} with its statistics in the scan's column order. */
    DataFile map(DataFile file) {
        ColumnStats stats = file.valueStats();
        Object[] mins = new Object[sources.length];
        Object[] maxs = new Object[sources.length];
        long[] nulls = new long[sources.length];
        for (int i = 0; i < sources.length; i++) {
            int j = sources[i];
            if (j < 0 && defaults[i] != null) {
                mins[i] = defaults[i];
                maxs[i] = defaults[i];
            } else if (j < 0) {
                nulls[i] = file.rowCount();
            } else if (j >= stats.columnCount()) {
                nulls[i] = -1;
            } else {
                nulls[i] = stats.nullCount(j);
                if (sameType[i]) {
                    mins[i] = stats.min(j);
                    maxs[i] = stats.max(j);
                }
            }
        }
        return new DataFile(
                file.fileName(),
                file.fileSize(),
                file.rowCount(),
                file.level(),
                file.schemaId(),
                file.sequence(),
                new ColumnStats(mins, maxs, nulls),
                file.keyRange());
    }
}
