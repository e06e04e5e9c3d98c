package dev.tarn.format.predicate;

import java.io.Serializable;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;

/**
 * The Java-serialized form of a {@link Predicate.Leaf}: literals of Flink's internal types that are
 * not serializable ({@code StringData}, {@code DecimalData}, {@code TimestampData}) as their Java
 * counterparts, turned back into a leaf on reading.
 */
final class SerializedLeaf implements Serializable {

    private static final long serialVersionUID = 1L;

    private final Predicate.Op op;
    private final int field;
    private final String fieldName;
    private final LogicalType type;
    private final List<Object> literals = new ArrayList<>();
    private final List<Kind> kinds = new ArrayList<>();

    /** How a literal was converted. */
    private enum Kind {
        AS_IS,
        STRING,
        DECIMAL,
        TIMESTAMP
    }

    SerializedLeaf(Predicate.Leaf leaf) {
        this.op = leaf.op();
        this.field = leaf.field();
        this.fieldName = leaf.fieldName();
        this.type = leaf.type();
        for (Object literal : leaf.literals()) {
            if (literal instanceof StringData) {
                kinds.add(Kind.STRING);
                literals.add(literal.toString());
            } else if (literal instanceof DecimalData decimal) {
                kinds.add(Kind.DECIMAL);
                literals.add(decimal.toBigDecimal());
            } else if (literal instanceof TimestampData timestamp) {
                kinds.add(Kind.TIMESTAMP);
                literals.add(timestamp.toLocalDateTime());
            } else {
                kinds.add(Kind.AS_IS);
                literals.add(literal);
            }
        }
    }

    private Object readResolve() {
        List<Object> restored = new ArrayList<>();
        for (int i = 0; i < literals.size(); i++) {
            Object value = literals.get(i);
            restored.add(
                    switch (kinds.get(i)) {
                        case STRING -> StringData.fromString((String) value);
                        case DECIMAL ->
                                DecimalData.fromBigDecimal(
                                        (BigDecimal) value,
                                        LogicalTypeChecks.getPrecision(type),
                                        LogicalTypeChecks.getScale(type));
                        case TIMESTAMP -> TimestampData.fromLocalDateTime((LocalDateTime) value);
                        case AS_IS -> value;
                    });
        }
        return new Predicate.Leaf(op, field, fieldName, type, restored);
    }
}
