package dev.tarn.catalog.statistics;

import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DataFile.ColumnStats;
import java.math.BigDecimal;
import java.util.Optional;
import javax.annotation.Nullable;
import org.apache.flink.table.catalog.stats.CatalogColumnStatisticsDataBase;
import org.apache.flink.table.catalog.stats.CatalogColumnStatisticsDataBinary;
import org.apache.flink.table.catalog.stats.CatalogColumnStatisticsDataBoolean;
import org.apache.flink.table.catalog.stats.CatalogColumnStatisticsDataDate;
import org.apache.flink.table.catalog.stats.CatalogColumnStatisticsDataDouble;
import org.apache.flink.table.catalog.stats.CatalogColumnStatisticsDataLong;
import org.apache.flink.table.catalog.stats.CatalogColumnStatisticsDataString;
import org.apache.flink.table.catalog.stats.Date;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * One column's statistics over many files, as Flink's catalog statistics of its type: the sum of
 * the files' null counts, and for integer, floating-point, decimal and date columns the smallest
 * and largest bound. Once one file does not know its null count (or, with rows that are not null,
 * its bounds), the total does not know it either: the planner must never get a bound a row exceeds.
 */
final class ColumnTotals {

    /** How the column's bounds are kept and handed to Flink; NONE where Flink has no bounds. */
    private enum Kind {
        LONG,
        DOUBLE,
        DATE,
        BOOLEAN,
        STRING,
        BINARY,
        NONE
    }

    private final Kind kind;
    private long nullCount;
    private boolean boundsKnown = true;

    /** Exact bounds (a BIGINT or DECIMAL as a double could round past a value). */
    @Nullable private BigDecimal min;

    @Nullable private BigDecimal max;

    ColumnTotals(LogicalType type) {
        this.kind =
                switch (type.getTypeRoot()) {
                    case TINYINT, SMALLINT, INTEGER, BIGINT -> Kind.LONG;
                    case FLOAT, DOUBLE, DECIMAL -> Kind.DOUBLE;
                    case DATE -> Kind.DATE;
                    case BOOLEAN -> Kind.BOOLEAN;
                    case CHAR, VARCHAR -> Kind.STRING;
                    case BINARY, VARBINARY -> Kind.BINARY;
                    default -> Kind.NONE;
                };
    }

    /** A file whose schema lacks the column: every row of it reads as null. */
    void addAllNull(long rows) {
        if (nullCount >= 0) {
            nullCount += rows;
        }
    }

    /**
     * The column's statistics at {@code index} of {@code file}'s; its bounds only if {@code
     * sameType} (a widened column's bounds are values of its old type).
     */
    void add(DataFile file, int index, boolean sameType) {
        ColumnStats stats = file.valueStats();
        if (index >= stats.columnCount() || stats.nullCount(index) < 0) {
            nullCount = -1;
            boundsKnown = false;
            return;
        }
        long nulls = stats.nullCount(index);
        if (nullCount >= 0) {
            nullCount += nulls;
        }
        if (nulls == file.rowCount()) {
            return; // No value, so nothing to bound.
        }
        BigDecimal low = sameType ? number(stats.min(index)) : null;
        BigDecimal high = sameType ? number(stats.max(index)) : null;
        if (low == null || high == null) {
            boundsKnown = false;
            return;
        }
        min = min == null || low.compareTo(min) < 0 ? low : min;
        max = max == null || high.compareTo(max) > 0 ? high : max;
    }

    /** Flink's statistics of the column, or empty if nothing is known. */
    Optional<CatalogColumnStatisticsDataBase> statistics() {
        Long nulls = nullCount < 0 ? null : nullCount;
        boolean bounded = boundsKnown && min != null;
        BigDecimal low = bounded ? min : null;
        BigDecimal high = bounded ? max : null;
        if (nulls == null && low == null) {
            return Optional.empty();
        }
        return Optional.of(
                switch (kind) {
                    case LONG ->
                            new CatalogColumnStatisticsDataLong(
                                    low == null ? null : low.longValue(),
                                    high == null ? null : high.longValue(),
                                    null,
                                    nulls);
                    case DOUBLE ->
                            new CatalogColumnStatisticsDataDouble(
                                    low == null ? null : low.doubleValue(),
                                    high == null ? null : high.doubleValue(),
                                    null,
                                    nulls);
                    case DATE ->
                            new CatalogColumnStatisticsDataDate(
                                    low == null ? null : new Date(low.longValue()),
                                    high == null ? null : new Date(high.longValue()),
                                    null,
                                    nulls);
                    case BOOLEAN -> new CatalogColumnStatisticsDataBoolean(null, null, nulls);
                    case STRING -> new CatalogColumnStatisticsDataString(null, null, null, nulls);
                    case BINARY -> new CatalogColumnStatisticsDataBinary(null, null, nulls);
                    // Flink has no statistics of timestamps and nested types; a null count is
                    // still worth giving, and the string kind carries nothing else.
                    case NONE -> new CatalogColumnStatisticsDataString(null, null, null, nulls);
                });
    }

    /** A bound as a number, for the kinds that have bounds; null otherwise or if unknown. */
    @Nullable
    private BigDecimal number(@Nullable Object bound) {
        if (bound == null) {
            return null;
        }
        return switch (kind) {
            case LONG, DATE -> BigDecimal.valueOf(((Number) bound).longValue());
            case DOUBLE -> {
                if (bound instanceof DecimalData d) {
                    yield d.toBigDecimal();
                }
                double value = ((Number) bound).doubleValue();
                // NaN and infinities have no decimal form: leave the bounds unknown.
                yield Double.isFinite(value) ? BigDecimal.valueOf(value) : null;
            }
            default -> null;
        };
    }
}
