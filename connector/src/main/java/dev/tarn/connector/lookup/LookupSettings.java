package dev.tarn.connector.lookup;

import dev.tarn.connector.TarnConnectorOptions;
import java.io.Serializable;
import java.util.Map;
import org.apache.flink.table.api.ValidationException;

/**
 * The connector options of a lookup join against one table ({@link TarnConnectorOptions#LOOKUP}),
 * read once when the table's source is made.
 *
 * @param async whether lookups run asynchronously ({@code lookup.async})
 * @param asyncThreads the threads of one subtask that answer them ({@code
 *     lookup.async-thread-number})
 */
public record LookupSettings(boolean async, int asyncThreads) implements Serializable {

    /** The defaults: synchronous lookups. */
    public static final LookupSettings DEFAULT =
            new LookupSettings(
                    TarnConnectorOptions.LOOKUP_ASYNC.defaultValue(),
                    TarnConnectorOptions.LOOKUP_ASYNC_THREAD_NUMBER.defaultValue());

    /**
     * The settings {@code options} give table {@code table}, defaults where they give none.
     *
     * @throws ValidationException naming the option, its value, the table and why it is refused
     */
    public static LookupSettings of(String table, Map<String, String> options) {
        boolean async = DEFAULT.async;
        String asyncValue = options.get(TarnConnectorOptions.LOOKUP_ASYNC.key());
        if (asyncValue != null) {
            if (asyncValue.trim().equalsIgnoreCase("true")) {
                async = true;
            } else if (asyncValue.trim().equalsIgnoreCase("false")) {
                async = false;
            } else {
                throw invalid(
                        table,
                        TarnConnectorOptions.LOOKUP_ASYNC.key(),
                        asyncValue,
                        "must be 'true' or 'false'");
            }
        }
        int threads = DEFAULT.asyncThreads;
        String threadsValue = options.get(TarnConnectorOptions.LOOKUP_ASYNC_THREAD_NUMBER.key());
        if (threadsValue != null) {
            String range =
                    "must be a whole number from 1 to "
                            + TarnConnectorOptions.MAX_LOOKUP_ASYNC_THREADS;
            try {
                threads = Integer.parseInt(threadsValue.trim());
            } catch (NumberFormatException e) {
                throw invalid(
                        table,
                        TarnConnectorOptions.LOOKUP_ASYNC_THREAD_NUMBER.key(),
                        threadsValue,
                        range);
            }
            if (threads < 1 || threads > TarnConnectorOptions.MAX_LOOKUP_ASYNC_THREADS) {
                throw invalid(
                        table,
                        TarnConnectorOptions.LOOKUP_ASYNC_THREAD_NUMBER.key(),
                        threadsValue,
                        range);
            }
        }
        return new LookupSettings(async, threads);
    }

    private static ValidationException invalid(
            String table, String key, String value, String reason) {
        return new ValidationException(
                String.format(
                        "Invalid value '%s' for option '%s' of table %s: %s",
                        value, key, table, reason));
    }
}
