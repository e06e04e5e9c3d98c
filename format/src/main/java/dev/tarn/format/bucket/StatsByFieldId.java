package dev.tarn.format.bucket;

import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DataFile.ColumnStats;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.schema.TableSchema.DataField;
import javax.annotation.Nullable;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * A file's column statistics, recorded by the columns of the schema it was written under, as
 * statistics of a scan's schema by field id: a renamed or moved column keeps its statistics; a
 * column the file lacks is all null in it, or all its default (as a read returns it); a widened
 * column's bounds are converted to the new type where the widening keeps order and value (integers
 * to wider integers, FLOAT to DOUBLE, DECIMAL to more digits, a string to a longer one), and
 * unknown otherwise.
 */
final class StatsByFieldId {

    /** Per column of the scan's schema: its index in the file's schema, -1 if absent. */
    private final int[] sources;

    /** Per column of the scan's schema: whether its type is the file's, ignoring nullability. */
    private final boolean[] sameType;

    /** Per column of the scan's schema: its type, where the file's is another. */
    private final LogicalType[] types;

    /** Per column of the scan's schema the file lacks: its default, or null. */
    private final Object[] defaults;

    StatsByFieldId(TableSchema scan, TableSchema file) {
        int arity = scan.fields().size();
        this.sources = new int[arity];
        this.sameType = new boolean[arity];
        this.types = new LogicalType[arity];
        this.defaults = new Object[arity];
        for (int i = 0; i < arity; i++) {
            DataField f = scan.fields().get(i);
            sources[i] = -1;
            for (int j = 0; j < file.fields().size(); j++) {
                DataField written = file.fields().get(j);
                if (written.id() == f.id()) {
                    sources[i] = j;
                    sameType[i] = written.type().copy(true).equals(f.type().copy(true));
                    types[i] = f.type();
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
                } else {
                    mins[i] = widened(stats.min(j), types[i]);
                    maxs[i] = widened(stats.max(j), types[i]);
                }
            }
        }
        return file.withValueStats(new ColumnStats(mins, maxs, nulls));
    }

    /**
     * A bound of the old type as a value of the widened {@code type}, or null (unknown) where the
     * widening has no exact, order-keeping image of it.
     */
    @Nullable
    static Object widened(@Nullable Object bound, LogicalType type) {
        if (bound == null) {
            return null;
        }
        LogicalTypeRoot root = type.getTypeRoot();
        if (bound instanceof Byte || bound instanceof Short || bound instanceof Integer) {
            long value = ((Number) bound).longValue();
            return switch (root) {
                case SMALLINT -> (short) value;
                case INTEGER -> (int) value;
                case BIGINT -> value;
                default -> null;
            };
        }
        if (bound instanceof Float f && root == LogicalTypeRoot.DOUBLE) {
            return (double) f;
        }
        if (bound instanceof DecimalData d && type instanceof DecimalType decimal) {
            return DecimalData.fromBigDecimal(
                    d.toBigDecimal(), decimal.getPrecision(), decimal.getScale());
        }
        if (bound instanceof StringData
                && (root == LogicalTypeRoot.VARCHAR || root == LogicalTypeRoot.CHAR)) {
            return bound;
        }
        return null;
    }
}
