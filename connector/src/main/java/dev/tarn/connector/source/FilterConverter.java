package dev.tarn.connector.source;

import dev.tarn.format.predicate.Predicate;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.expressions.CallExpression;
import org.apache.flink.table.expressions.Expression;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.expressions.ValueLiteralExpression;
import org.apache.flink.table.functions.BuiltInFunctionDefinitions;
import org.apache.flink.table.functions.FunctionDefinition;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Translates the planner's filter expressions into {@link Predicate}s for pruning. What it cannot
 * translate it leaves out, which only means less pruning: Flink still applies every filter.
 */
final class FilterConverter {

    private static final Map<FunctionDefinition, Predicate.Op> COMPARISONS =
            Map.of(
                    BuiltInFunctionDefinitions.EQUALS, Predicate.Op.EQ,
                    BuiltInFunctionDefinitions.NOT_EQUALS, Predicate.Op.NOT_EQ,
                    BuiltInFunctionDefinitions.LESS_THAN, Predicate.Op.LT,
                    BuiltInFunctionDefinitions.LESS_THAN_OR_EQUAL, Predicate.Op.LT_EQ,
                    BuiltInFunctionDefinitions.GREATER_THAN, Predicate.Op.GT,
                    BuiltInFunctionDefinitions.GREATER_THAN_OR_EQUAL, Predicate.Op.GT_EQ);

    /** The same comparison with its operands swapped ({@code 5 < x} is {@code x > 5}). */
    private static final Map<Predicate.Op, Predicate.Op> FLIPPED =
            Map.of(
                    Predicate.Op.EQ, Predicate.Op.EQ,
                    Predicate.Op.NOT_EQ, Predicate.Op.NOT_EQ,
                    Predicate.Op.LT, Predicate.Op.GT,
                    Predicate.Op.LT_EQ, Predicate.Op.GT_EQ,
                    Predicate.Op.GT, Predicate.Op.LT,
                    Predicate.Op.GT_EQ, Predicate.Op.LT_EQ);

    private final RowType rowType;

    FilterConverter(RowType rowType) {
        this.rowType = rowType;
    }

    Optional<Predicate> convert(ResolvedExpression expression) {
        if (!(expression instanceof CallExpression call)) {
            return Optional.empty();
        }
        FunctionDefinition fn = call.getFunctionDefinition();
        List<ResolvedExpression> args = call.getResolvedChildren();
        if (fn == BuiltInFunctionDefinitions.AND || fn == BuiltInFunctionDefinitions.OR) {
            List<Predicate> children = new ArrayList<>();
            for (ResolvedExpression arg : args) {
                Optional<Predicate> child = convert(arg);
                if (child.isPresent()) {
                    children.add(child.get());
                } else if (fn == BuiltInFunctionDefinitions.OR) {
                    return Optional.empty();
                }
            }
            if (children.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(
                    fn == BuiltInFunctionDefinitions.AND
                            ? new Predicate.And(children)
                            : new Predicate.Or(children));
        }
        if (fn == BuiltInFunctionDefinitions.IS_NULL
                || fn == BuiltInFunctionDefinitions.IS_NOT_NULL) {
            if (args.get(0) instanceof FieldReferenceExpression field) {
                Predicate.Op op =
                        fn == BuiltInFunctionDefinitions.IS_NULL
                                ? Predicate.Op.IS_NULL
                                : Predicate.Op.IS_NOT_NULL;
                return Optional.of(leaf(op, field, List.of()));
            }
            return Optional.empty();
        }
        if (fn == BuiltInFunctionDefinitions.IN
                && args.get(0) instanceof FieldReferenceExpression f) {
            List<Object> literals = new ArrayList<>();
            for (Expression arg : args.subList(1, args.size())) {
                Object literal = literal(arg, type(f));
                if (literal == null) {
                    return Optional.empty();
                }
                literals.add(literal);
            }
            return Optional.of(leaf(Predicate.Op.IN, f, literals));
        }
        Predicate.Op op = COMPARISONS.get(fn);
        if (op == null || args.size() != 2) {
            return Optional.empty();
        }
        if (args.get(0) instanceof FieldReferenceExpression f) {
            Object literal = literal(args.get(1), type(f));
            return literal == null ? Optional.empty() : Optional.of(leaf(op, f, List.of(literal)));
        }
        if (args.get(1) instanceof FieldReferenceExpression f) {
            Object literal = literal(args.get(0), type(f));
            return literal == null
                    ? Optional.empty()
                    : Optional.of(leaf(FLIPPED.get(op), f, List.of(literal)));
        }
        return Optional.empty();
    }

    private LogicalType type(FieldReferenceExpression field) {
        return rowType.getTypeAt(rowType.getFieldIndex(field.getName()));
    }

    private Predicate.Leaf leaf(
            Predicate.Op op, FieldReferenceExpression field, List<Object> lits) {
        return new Predicate.Leaf(
                op, rowType.getFieldIndex(field.getName()), field.getName(), type(field), lits);
    }

    /** The literal as Flink internal data of {@code type}, or null if it is not a plain literal. */
    static Object literal(Expression expression, LogicalType type) {
        if (!(expression instanceof ValueLiteralExpression literal)) {
            return null;
        }
        try {
            return switch (type.getTypeRoot()) {
                case BOOLEAN -> literal.getValueAs(Boolean.class).orElse(null);
                case TINYINT ->
                        integral(literal)
                                .filter(v -> v == v.byteValue())
                                .map(Long::byteValue)
                                .orElse(null);
                case SMALLINT ->
                        integral(literal)
                                .filter(v -> v == v.shortValue())
                                .map(Long::shortValue)
                                .orElse(null);
                case INTEGER ->
                        integral(literal)
                                .filter(v -> v == v.intValue())
                                .map(Long::intValue)
                                .orElse(null);
                case BIGINT -> integral(literal).orElse(null);
                case FLOAT -> number(literal).map(Number::floatValue).orElse(null);
                case DOUBLE -> number(literal).map(Number::doubleValue).orElse(null);
                case CHAR, VARCHAR ->
                        literal.getValueAs(String.class).map(StringData::fromString).orElse(null);
                case DECIMAL -> {
                    DecimalType d = (DecimalType) type;
                    yield literal.getValueAs(BigDecimal.class)
                            .map(v -> DecimalData.fromBigDecimal(v, d.getPrecision(), d.getScale()))
                            .orElse(null);
                }
                case DATE ->
                        literal.getValueAs(LocalDate.class)
                                .map(v -> (Object) (int) v.toEpochDay())
                                .orElse(null);
                case TIME_WITHOUT_TIME_ZONE ->
                        literal.getValueAs(LocalTime.class)
                                .map(v -> (Object) (int) (v.toNanoOfDay() / 1_000_000))
                                .orElse(null);
                case TIMESTAMP_WITHOUT_TIME_ZONE ->
                        literal.getValueAs(LocalDateTime.class)
                                .map(TimestampData::fromLocalDateTime)
                                .orElse(null);
                case TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
                        literal.getValueAs(Instant.class)
                                .map(TimestampData::fromInstant)
                                .orElse(null);
                default -> null;
            };
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * The literal as a whole number, or empty if it has a fraction (rounding it would change what a
     * comparison with an integer column means) or does not fit in a long.
     */
    private static Optional<Long> integral(ValueLiteralExpression literal) {
        return number(literal)
                .flatMap(
                        n -> {
                            try {
                                return Optional.of(new BigDecimal(n.toString()).longValueExact());
                            } catch (ArithmeticException | NumberFormatException e) {
                                return Optional.empty();
                            }
                        });
    }

    private static Optional<Number> number(ValueLiteralExpression literal) {
        Optional<BigDecimal> exact = literal.getValueAs(BigDecimal.class);
        if (exact.isPresent()) {
            return Optional.of(exact.get());
        }
        return literal.getValueAs(Number.class);
    }
}
