package dev.tarn.format.read;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * The Java-serialized form of a {@link Predicate.Leaf}: its string literals as {@code String}s
 * (Flink's {@code StringData} is not serializable), turned back into a leaf on reading.
 */
final class SerializedLeaf implements Serializable {

    private static final long serialVersionUID = 1L;

    private final Predicate.Op op;
    private final int field;
    private final String fieldName;
    private final LogicalType type;
    private final List<Object> literals = new ArrayList<>();
    private final List<Boolean> isString = new ArrayList<>();

    SerializedLeaf(Predicate.Leaf leaf) {
        this.op = leaf.op();
        this.field = leaf.field();
        this.fieldName = leaf.fieldName();
        this.type = leaf.type();
        for (Object literal : leaf.literals()) {
            boolean string = literal instanceof StringData;
            isString.add(string);
            literals.add(string ? literal.toString() : literal);
        }
    }

    private Object readResolve() {
        List<Object> restored = new ArrayList<>();
        for (int i = 0; i < literals.size(); i++) {
            restored.add(
                    isString.get(i)
                            ? StringData.fromString((String) literals.get(i))
                            : literals.get(i));
        }
        return new Predicate.Leaf(op, field, fieldName, type, restored);
    }
}
