package dev.tarn.format.parquet;

import dev.tarn.format.manifest.DataFile.ColumnStats;
import dev.tarn.format.parquet.schema.DecimalEncoding;
import dev.tarn.format.parquet.schema.TimestampEncoding;
import java.util.HashMap;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.api.Binary;

/**
 * Column statistics of a data file, merged over the row groups of its Parquet footer. Bounds are
 * exact or unknown (null): unknown for nested columns, INT96 timestamps (Parquet defines no order
 * for INT96), strings and binaries longer than {@link #MAX_BOUND_BYTES}, float columns holding NaN,
 * and whenever a row group lacks statistics. Null counts are unknown (-1) for nested columns.
 */
final class FooterStats {

    /** Longer bounds are dropped: manifests hold one per column per file and must stay small. */
    static final int MAX_BOUND_BYTES = 64;

    private FooterStats() {}

    static ColumnStats of(ParquetMetadata footer, RowType rowType) {
        int columns = rowType.getFieldCount();
        ColumnStats stats = ColumnStats.unknown(columns);
        Map<ColumnPath, Integer> index = new HashMap<>();
        for (int i = 0; i < columns; i++) {
            index.put(ColumnPath.get(rowType.getFieldNames().get(i)), i);
        }
        Statistics<?>[] merged = new Statistics<?>[columns];
        boolean[] nullsUnknown = new boolean[columns];
        boolean[] boundsUnknown = new boolean[columns];
        for (BlockMetaData block : footer.getBlocks()) {
            for (ColumnChunkMetaData chunk : block.getColumns()) {
                Integer column = index.get(chunk.getPath());
                if (column == null) {
                    continue; // a leaf of a nested column
                }
                Statistics<?> s = chunk.getStatistics();
                if (s == null || !s.isNumNullsSet()) {
                    nullsUnknown[column] = true;
                    boundsUnknown[column] = true;
                } else if (merged[column] == null) {
                    merged[column] = s.copy();
                } else {
                    merged[column].mergeStatistics(s);
                }
                boolean hasValues = s != null && chunk.getValueCount() > s.getNumNulls();
                if (hasValues && !s.hasNonNullValue()) {
                    boundsUnknown[column] = true; // values without bounds (too long to keep)
                }
            }
        }
        for (int i = 0; i < columns; i++) {
            Statistics<?> s = merged[i];
            if (s == null) {
                continue;
            }
            stats.nullCounts()[i] = nullsUnknown[i] ? -1 : s.getNumNulls();
            if (!boundsUnknown[i] && s.hasNonNullValue()) {
                LogicalType type = rowType.getTypeAt(i);
                Object min = toFlink(s.genericGetMin(), type);
                Object max = toFlink(s.genericGetMax(), type);
                if (min != null && max != null) {
                    stats.mins()[i] = min;
                    stats.maxs()[i] = max;
                }
            }
        }
        return stats;
    }

    /** A Parquet statistics value as Flink internal data of {@code type}, or null if unusable. */
    @Nullable
    static Object toFlink(Object value, LogicalType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
            case BIGINT:
                return value;
            case TINYINT:
                return ((Integer) value).byteValue();
            case SMALLINT:
                return ((Integer) value).shortValue();
            case FLOAT:
                return ((Float) value).isNaN() ? null : value;
            case DOUBLE:
                return ((Double) value).isNaN() ? null : value;
            case CHAR:
            case VARCHAR:
                Binary string = (Binary) value;
                return string.length() > MAX_BOUND_BYTES
                        ? null
                        : StringData.fromBytes(string.getBytes());
            case BINARY:
            case VARBINARY:
                Binary bytes = (Binary) value;
                return bytes.length() > MAX_BOUND_BYTES ? null : bytes.getBytes();
            case DECIMAL:
                DecimalType decimal = (DecimalType) type;
                int p = decimal.getPrecision();
                int s = decimal.getScale();
                return switch (DecimalEncoding.of(p)) {
                    case INT32 -> DecimalData.fromUnscaledLong((Integer) value, p, s);
                    case INT64 -> DecimalData.fromUnscaledLong((Long) value, p, s);
                    case FIXED -> DecimalData.fromUnscaledBytes(((Binary) value).getBytes(), p, s);
                };
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                TimestampEncoding encoding =
                        TimestampEncoding.of(LogicalTypeChecks.getPrecision(type));
                return encoding == TimestampEncoding.INT96
                        ? null
                        : encoding.toFlinkTimestamp((Long) value);
            default:
                return null;
        }
    }
}
