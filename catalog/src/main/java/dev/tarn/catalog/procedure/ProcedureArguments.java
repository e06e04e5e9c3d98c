package dev.tarn.catalog.procedure;

import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import javax.annotation.Nullable;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.util.TimeUtils;

/**
 * Parses the arguments of one call of a {@code sys} procedure; each refusal names the procedure,
 * the argument and the value, as a {@link ValidationException} (what Flink reports for a bad call).
 */
final class ProcedureArguments {

    private static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss[.SSS]");

    private final String procedure;

    ProcedureArguments(String procedure) {
        this.procedure = procedure;
    }

    /** The argument {@code table}, {@code 'database.table'}. */
    ObjectPath table(@Nullable String table) {
        try {
            return ObjectPath.fromString(required("table", table));
        } catch (IllegalArgumentException e) {
            throw invalid("table", table, "name a table as 'database.table'");
        }
    }

    String required(String name, @Nullable String value) {
        if (value == null || value.isBlank()) {
            throw invalid(name, value, "it is required");
        }
        return value;
    }

    /** A count that must be at least {@code least}, or null if not given. */
    @Nullable
    Integer atLeast(String name, @Nullable Integer value, int least) {
        if (value != null && value < least) {
            throw invalid(name, value, "it must be at least " + least);
        }
        return value;
    }

    /**
     * A time as {@code 'yyyy-MM-dd HH:mm:ss[.SSS]'} or {@code 'yyyy-MM-dd'} in {@code zone}, as
     * epoch milliseconds; null if not given.
     */
    @Nullable
    Long timestamp(String name, @Nullable String value, ZoneId zone) {
        if (value == null) {
            return null;
        }
        String text = value.trim();
        try {
            LocalDateTime time =
                    text.length() == 10
                            ? LocalDate.parse(text).atStartOfDay()
                            : LocalDateTime.parse(text, TIMESTAMP);
            return time.atZone(zone).toInstant().toEpochMilli();
        } catch (DateTimeParseException e) {
            throw invalid(name, value, "expected 'yyyy-MM-dd HH:mm:ss' or 'yyyy-MM-dd'");
        }
    }

    /** A duration as Flink writes one ({@code '1 d'}, {@code '12 h'}); null if not given. */
    @Nullable
    Duration duration(String name, @Nullable String value) {
        if (value == null) {
            return null;
        }
        try {
            return TimeUtils.parseDuration(value);
        } catch (RuntimeException e) {
            throw invalid(name, value, "expected a duration such as '1 d' or '12 h'");
        }
    }

    /**
     * A refusal of argument {@code name} with {@code value} as SQL writes it: text quoted ({@code
     * ''} for the empty string), numbers as they are, {@code NULL} for none.
     */
    ValidationException invalid(String name, @Nullable Object value, String reason) {
        return new ValidationException(
                String.format(
                        "Invalid argument '%s' of sys.%s: %s; %s",
                        name, procedure, literal(value), reason));
    }

    /** {@code value} as SQL writes it, for messages. */
    static String literal(@Nullable Object value) {
        if (value == null) {
            return "NULL";
        }
        if (value instanceof String text) {
            return "'" + text.replace("'", "''") + "'";
        }
        return value.toString();
    }

    /** A failure of the format's work, e.g. an unknown snapshot, as Flink reports a bad call. */
    ValidationException failed(String argument, RuntimeException e) {
        return new ValidationException(
                String.format(
                        "Invalid argument '%s' of sys.%s: %s", argument, procedure, e.getMessage()),
                e);
    }
}
