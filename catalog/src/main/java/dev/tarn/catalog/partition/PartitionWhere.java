package dev.tarn.catalog.partition;

import dev.tarn.format.manifest.Partition;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * The {@code where} argument of a procedure: a SQL boolean over partition columns, turned into a
 * selector of partitions. Grammar: {@code OR}, {@code AND}, {@code NOT} and parentheses over
 * comparisons {@code column op literal} ({@code = <> != < <= > >=}), {@code column [NOT] IN (...)},
 * {@code column [NOT] BETWEEN a AND b} and {@code column IS [NOT] NULL}; literals are strings
 * ({@code 'it''s'}), numbers, {@code TRUE}/{@code FALSE} and {@code DATE '2026-11-30'}. Numeric
 * columns compare by value, others as their text (dates as {@code yyyy-MM-dd} text, which orders as
 * the dates do). As in SQL, a comparison with a NULL partition value is not true. Anything else
 * (another column, a function) is refused with a message naming the argument.
 */
public final class PartitionWhere {

    private final String table;
    private final String text;
    private final List<String> keys;
    private final List<LogicalType> types;
    private final List<String> tokens;
    private int pos;

    private PartitionWhere(String table, String text, List<String> keys, List<LogicalType> types) {
        this.table = table;
        this.text = text;
        this.keys = keys;
        this.types = types;
        this.tokens = WhereTokens.of(text, this::refuse);
    }

    /**
     * @param types the type of each partition key, in key order
     * @throws ValidationException naming the argument, the reason and the text
     */
    public static Predicate<Partition> parse(
            String table, List<String> keys, List<LogicalType> types, String text) {
        PartitionWhere parser = new PartitionWhere(table, text, keys, types);
        Predicate<Partition> result = parser.or();
        if (parser.pos < parser.tokens.size()) {
            throw parser.refuse("unexpected '" + parser.tokens.get(parser.pos) + "'");
        }
        return result;
    }

    private Predicate<Partition> or() {
        Predicate<Partition> left = and();
        while (accept("OR")) {
            left = left.or(and());
        }
        return left;
    }

    private Predicate<Partition> and() {
        Predicate<Partition> left = not();
        while (accept("AND")) {
            left = left.and(not());
        }
        return left;
    }

    private Predicate<Partition> not() {
        if (accept("NOT")) {
            Predicate<Partition> inner = not();
            return p -> !inner.test(p); // Partition values are known: two-valued is enough.
        }
        if (accept("(")) {
            Predicate<Partition> inner = or();
            expect(")");
            return inner;
        }
        return comparison();
    }

    private Predicate<Partition> comparison() {
        String name = next("a partition column");
        if (pos < tokens.size() && tokens.get(pos).equals("(")) {
            throw refuse(
                    "'"
                            + name
                            + "(...)' is a function; 'where' may only compare partition columns"
                            + " with literals");
        }
        int key = column(name);
        LogicalType type = types.get(key);
        if (accept("IS")) {
            boolean negated = accept("NOT");
            expect("NULL");
            return p -> (p.values().get(key) == null) != negated;
        }
        boolean negated = accept("NOT");
        if (accept("IN")) {
            expect("(");
            List<String> values = new ArrayList<>();
            do {
                values.add(literal());
            } while (accept(","));
            expect(")");
            return known(
                    key, v -> values.stream().anyMatch(l -> compare(type, v, l) == 0) != negated);
        }
        if (accept("BETWEEN")) {
            String low = literal();
            expect("AND");
            String high = literal();
            return known(
                    key,
                    v -> (compare(type, v, low) >= 0 && compare(type, v, high) <= 0) != negated);
        }
        if (negated) {
            throw refuse("expected IN or BETWEEN after NOT");
        }
        String op = next("a comparison");
        String literal = literal();
        Predicate<Integer> test =
                switch (op) {
                    case "=" -> c -> c == 0;
                    case "<>", "!=" -> c -> c != 0;
                    case "<" -> c -> c < 0;
                    case "<=" -> c -> c <= 0;
                    case ">" -> c -> c > 0;
                    case ">=" -> c -> c >= 0;
                    default -> throw refuse("'" + op + "' is no comparison");
                };
        return known(key, v -> test.test(compare(type, v, literal)));
    }

    /** {@code test} on the value of partition key {@code key}; false where it is NULL. */
    private static Predicate<Partition> known(int key, Predicate<String> test) {
        return p -> p.values().get(key) != null && test.test(p.values().get(key));
    }

    private int compare(LogicalType type, String value, String literal) {
        if (type.is(LogicalTypeFamily.NUMERIC)) {
            try {
                return new BigDecimal(value).compareTo(new BigDecimal(literal));
            } catch (NumberFormatException e) {
                throw refuse("'" + literal + "' is no number, the type of its column " + type);
            }
        }
        if (type.getTypeRoot() == LogicalTypeRoot.BOOLEAN) {
            return value.toLowerCase(Locale.ROOT).compareTo(literal.toLowerCase(Locale.ROOT));
        }
        return value.compareTo(literal);
    }

    private int column(String token) {
        String name =
                token.startsWith("`")
                        ? token.substring(1, token.length() - 1).replace("``", "`")
                        : token;
        int key = keys.indexOf(name);
        if (key < 0) {
            throw refuse(
                    "'"
                            + name
                            + "' is no partition column; 'where' may only filter the partition"
                            + " columns "
                            + keys);
        }
        return key;
    }

    /** A literal's text: a string's content, a number, true/false, a date's text. */
    private String literal() {
        String token = next("a literal");
        if (token.equalsIgnoreCase("DATE") && pos < tokens.size()) {
            token = next("a date string");
        }
        if (token.startsWith("'")) {
            return token.substring(1, token.length() - 1).replace("''", "'");
        }
        if (token.equalsIgnoreCase("TRUE") || token.equalsIgnoreCase("FALSE")) {
            return token.toLowerCase(Locale.ROOT);
        }
        if (!token.isEmpty() && (Character.isDigit(token.charAt(0)) || token.charAt(0) == '-')) {
            return token;
        }
        throw refuse("expected a literal, found '" + token + "'");
    }

    private boolean accept(String token) {
        if (pos < tokens.size() && tokens.get(pos).equalsIgnoreCase(token)) {
            pos++;
            return true;
        }
        return false;
    }

    private void expect(String token) {
        if (!accept(token)) {
            throw refuse(
                    "expected '"
                            + token
                            + "'"
                            + (pos < tokens.size()
                                    ? ", found '" + tokens.get(pos) + "'"
                                    : " at the end"));
        }
    }

    private String next(String what) {
        if (pos >= tokens.size()) {
            throw refuse("expected " + what + " at the end");
        }
        return tokens.get(pos++);
    }

    private ValidationException refuse(String reason) {
        return new ValidationException(
                String.format(
                        "Cannot compact table %s: argument 'where' (%s) is not a filter of"
                                + " partition columns: %s",
                        table, text, reason));
    }
}
