package dev.tarn.benchmarks;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.data.RowData;

/**
 * {@code 'connector' = 'bench-blackhole'}: Flink's blackhole (a Sink V2 writer that drops every
 * row) that also counts what it received, so that a pipeline into it can be checked. Each writer
 * counts in a field and adds its count, when it closes, to its table's total in this JVM, where the
 * benchmark's cluster runs: {@link #check} compares and resets it once the job is done.
 */
public final class CountingSinkFactory extends BenchSinkFactory {

    private static final Map<String, AtomicLong> RECEIVED = new ConcurrentHashMap<>();

    /**
     * Fails unless the tables named {@code table} received {@code expected} rows since the last
     * check, in jobs that ended; resets the count.
     */
    static void check(String table, long expected) {
        AtomicLong counted = RECEIVED.remove(table);
        long received = counted == null ? 0 : counted.get();
        if (received != expected) {
            throw new WrongResultException(
                    String.format(
                            "sink %s received %,d rows, expected %,d", table, received, expected));
        }
    }

    public CountingSinkFactory() {
        super("bench-blackhole", ChangelogMode.insertOnly());
    }

    @Override
    Sink<RowData> sink(Context context) {
        return new CountingSink(context.getObjectIdentifier().getObjectName());
    }

    private record CountingSink(String table) implements Sink<RowData> {
        @Override
        public SinkWriter<RowData> createWriter(WriterInitContext context) {
            return new SinkWriter<>() {
                private long received;

                @Override
                public void write(RowData row, Context context) {
                    received++;
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {
                    RECEIVED.computeIfAbsent(table, t -> new AtomicLong()).addAndGet(received);
                }
            };
        }
    }
}
