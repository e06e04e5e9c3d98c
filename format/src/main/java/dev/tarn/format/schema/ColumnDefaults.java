package dev.tarn.format.schema;

import dev.tarn.format.schema.TableSchema.DataField;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import javax.annotation.Nullable;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;

/**
 * Column defaults, the table options {@code fields.<column>.default-value}: the value a column
 * reads as in the rows of a file written before the column was added (instead of null). A default
 * shapes no stored data (files never hold it), so it may change with {@code ALTER TABLE}; it
 * follows its column through a rename and goes with it when it is dropped. A NOT NULL column can
 * only be added with one, and keeps one.
 */
final class ColumnDefaults {

    static final String SUFFIX = ".default-value";

    private ColumnDefaults() {}

    static String key(String column) {
        return LsmOptions.FIELDS_PREFIX + column + SUFFIX;
    }

    static boolean isDefaultKey(String key) {
        return key.startsWith(LsmOptions.FIELDS_PREFIX) && key.endsWith(SUFFIX);
    }

    /**
     * The default of {@code column} of {@code schema} as Flink internal data, or null without one.
     */
    @Nullable
    static Object value(TableSchema schema, String column) {
        String text = schema.options().get(key(column));
        return text == null ? null : parse(schema.fieldType(column), text);
    }

    /**
     * Checks that every default of {@code schema} whose column exists reads as the column's type.
     *
     * @throws IllegalArgumentException naming the option, the column, its type and the value
     */
    static void validate(String table, TableSchema schema) {
        for (DataField f : schema.fields()) {
            String text = schema.options().get(key(f.name()));
            if (text != null) {
                check(table, f.name(), f.type(), text);
            }
        }
    }

    /** As {@link #validate}, for one column. */
    static void check(String table, String column, LogicalType type, String text) {
        try {
            parse(type, text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    String.format(
                            "Option '%s' of table %s: default value '%s' of column %s is not a"
                                    + " value of its type %s: %s",
                            key(column),
                            table,
                            text,
                            column,
                            type.asSummaryString(),
                            e.getMessage()),
                    e);
        }
    }

    /**
     * Checks that {@code next} keeps a default for every NOT NULL column that has one in {@code
     * current}: files written before the column was added read as it.
     */
    static void checkKept(String table, TableSchema current, TableSchema next) {
        for (DataField f : next.fields()) {
            DataField before =
                    current.fields().stream()
                            .filter(c -> c.id() == f.id())
                            .findFirst()
                            .orElse(null);
            if (before == null || f.type().isNullable()) {
                continue;
            }
            String had = current.options().get(key(before.name()));
            if (had != null && !next.options().containsKey(key(f.name()))) {
                throw new IllegalArgumentException(
                        String.format(
                                "Cannot alter table %s: column %s is NOT NULL and has the default"
                                        + " '%s' (option '%s'), which rows of files written before"
                                        + " the column was added read as; it may change, but not"
                                        + " be removed",
                                table, f.name(), had, key(f.name())));
            }
        }
    }

    /**
     * {@code text} as a value of {@code type}, as Flink internal data.
     *
     * @throws IllegalArgumentException saying why it is not one
     */
    static Object parse(LogicalType type, String text) {
        String t = text.trim();
        try {
            return switch (type.getTypeRoot()) {
                case BOOLEAN -> {
                    String b = t.toLowerCase(Locale.ROOT);
                    if (!b.equals("true") && !b.equals("false")) {
                        throw new IllegalArgumentException("expected true or false");
                    }
                    yield Boolean.parseBoolean(b);
                }
                case TINYINT -> Byte.parseByte(t);
                case SMALLINT -> Short.parseShort(t);
                case INTEGER -> Integer.parseInt(t);
                case BIGINT -> Long.parseLong(t);
                case FLOAT -> Float.parseFloat(t);
                case DOUBLE -> Double.parseDouble(t);
                case DECIMAL -> decimal((DecimalType) type, t);
                case CHAR, VARCHAR -> {
                    int length = LogicalTypeChecks.getLength(type);
                    if (text.length() > length) {
                        throw new IllegalArgumentException(
                                "it has " + text.length() + " characters, more than " + length);
                    }
                    yield StringData.fromString(text);
                }
                case DATE -> (int) LocalDate.parse(t).toEpochDay();
                case TIMESTAMP_WITHOUT_TIME_ZONE ->
                        TimestampData.fromLocalDateTime(LocalDateTime.parse(t.replace(' ', 'T')));
                default ->
                        throw new IllegalArgumentException(
                                "columns of this type cannot have a default value");
            };
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new IllegalArgumentException("it does not parse (" + e.getMessage() + ")", e);
        }
    }

    private static DecimalData decimal(DecimalType type, String text) {
        BigDecimal value = new BigDecimal(text);
        if (value.stripTrailingZeros().scale() > type.getScale()) {
            throw new IllegalArgumentException(
                    "it has more than " + type.getScale() + " digits after the point");
        }
        DecimalData d = DecimalData.fromBigDecimal(value, type.getPrecision(), type.getScale());
        if (d == null) {
            throw new IllegalArgumentException(
                    "it has more than "
                            + (type.getPrecision() - type.getScale())
                            + " digits before the point");
        }
        return d;
    }
}
