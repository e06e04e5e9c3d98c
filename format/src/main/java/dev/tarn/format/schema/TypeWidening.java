package dev.tarn.format.schema;

import java.util.List;
import javax.annotation.Nullable;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;

/**
 * The type changes a column may make without rewriting a file: each value a file holds under the
 * old type converts exactly to the new one while it is decoded (SPEC.md, "Schema evolution").
 */
final class TypeWidening {

    private TypeWidening() {}

    /** Why {@code from} may not become {@code to}, or null if it may. */
    @Nullable
    static String refusal(LogicalType from, LogicalType to) {
        if (from.isNullable() && !to.isNullable()) {
            return "a nullable column cannot become NOT NULL (files may hold nulls)";
        }
        LogicalType f = from.copy(true);
        LogicalType t = to.copy(true);
        if (f.equals(t)) {
            return null;
        }
        LogicalTypeRoot a = f.getTypeRoot();
        LogicalTypeRoot b = t.getTypeRoot();
        switch (a) {
            case TINYINT:
                if (b == LogicalTypeRoot.SMALLINT
                        || b == LogicalTypeRoot.INTEGER
                        || b == LogicalTypeRoot.BIGINT) {
                    return null;
                }
                break;
            case SMALLINT:
                if (b == LogicalTypeRoot.INTEGER || b == LogicalTypeRoot.BIGINT) {
                    return null;
                }
                break;
            case INTEGER:
                if (b == LogicalTypeRoot.BIGINT) {
                    return null;
                }
                break;
            case FLOAT:
                if (b == LogicalTypeRoot.DOUBLE) {
                    return null;
                }
                break;
            case DECIMAL:
                if (b == LogicalTypeRoot.DECIMAL) {
                    DecimalType x = (DecimalType) f;
                    DecimalType y = (DecimalType) t;
                    if (y.getScale() >= x.getScale()
                            && y.getPrecision() - y.getScale() >= x.getPrecision() - x.getScale()) {
                        return null;
                    }
                    return "a decimal may only gain digits: both the scale and the digits before"
                            + " the point must not shrink";
                }
                break;
            case CHAR:
            case VARCHAR:
                if (b == LogicalTypeRoot.VARCHAR) {
                    if (LogicalTypeChecks.getLength(t) >= LogicalTypeChecks.getLength(f)) {
                        return null;
                    }
                    return "a string type may only get longer";
                }
                break;
            case ROW:
                if (b == LogicalTypeRoot.ROW) {
                    return rowRefusal((RowType) f, (RowType) t);
                }
                break;
            default:
                break;
        }
        if (isNumber(a) && isNumber(b) || isString(a) && isString(b)) {
            return "it narrows the type; only widenings are allowed (INT to BIGINT, FLOAT to"
                    + " DOUBLE, DECIMAL to more digits, CHAR/VARCHAR to longer VARCHAR, NOT NULL"
                    + " to nullable)";
        }
        return "the types are incompatible; only widenings are allowed (INT to BIGINT, FLOAT to"
                + " DOUBLE, DECIMAL to more digits, CHAR/VARCHAR to longer VARCHAR, NOT NULL to"
                + " nullable)";
    }

    /**
     * A ROW may gain nullable fields at its end and widen its fields; its fields have no ids of
     * their own, so they are matched by position and may not be renamed, dropped or moved.
     */
    @Nullable
    private static String rowRefusal(RowType from, RowType to) {
        List<RowType.RowField> a = from.getFields();
        List<RowType.RowField> b = to.getFields();
        if (b.size() < a.size()) {
            return "a ROW may not lose fields; nested fields may only be added at its end";
        }
        for (int i = 0; i < a.size(); i++) {
            if (!a.get(i).getName().equals(b.get(i).getName())) {
                return "nested field "
                        + a.get(i).getName()
                        + " would become "
                        + b.get(i).getName()
                        + "; nested fields are matched by position, so they may not be renamed,"
                        + " dropped or moved, only added at the end";
            }
            String reason = refusal(a.get(i).getType(), b.get(i).getType());
            if (reason != null) {
                return "nested field " + a.get(i).getName() + ": " + reason;
            }
        }
        for (int i = a.size(); i < b.size(); i++) {
            if (!b.get(i).getType().isNullable()) {
                return "added nested field "
                        + b.get(i).getName()
                        + " is NOT NULL, but values written before have none";
            }
        }
        return null;
    }

    private static boolean isNumber(LogicalTypeRoot root) {
        return switch (root) {
            case TINYINT, SMALLINT, INTEGER, BIGINT, FLOAT, DOUBLE, DECIMAL -> true;
            default -> false;
        };
    }

    private static boolean isString(LogicalTypeRoot root) {
        return root == LogicalTypeRoot.CHAR || root == LogicalTypeRoot.VARCHAR;
    }
}
