package dev.tarn.benchmarks;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.annotation.Nullable;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.data.RowData;

/**
 * {@code 'connector' = 'bench-join-sink'}: a blackhole for the lookup-join benchmark's output
 * {@code (cid BIGINT, k INT, name STRING, tier INT)} that counts the rows and sums a checksum of
 * their columns ({@link #checksum}), so a run can be checked against the join the generator and the
 * dimension keys imply: a missing, extra, duplicated or wrongly joined row changes the sum. Each
 * writer adds its totals, when it closes, to its table's in this JVM, where the benchmark's cluster
 * runs; {@link #check} compares and resets them once the job is done.
 */
public final class JoinSinkFactory extends BenchSinkFactory {

    /** Rows and checksum sum a table's writers delivered. */
    record Totals(long rows, long checksum) {
        Totals plus(Totals other) {
            return new Totals(rows + other.rows, checksum + other.checksum);
        }
    }

    private static final Map<String, Totals> RECEIVED = new ConcurrentHashMap<>();

    /** What a NULL column hashes as: no joined value hashes so. */
    private static final long NULL = 0x9e3779b97f4a7c15L;

    /**
     * The checksum of one output row; sums of it are order-free (they wrap, which keeps them exact
     * modulo 2^64).
     */
    static long checksum(long cid, int k, @Nullable String name, @Nullable Integer tier) {
        long h = BenchGenFactory.Rows.mix(cid);
        h = BenchGenFactory.Rows.mix(h ^ k);
        h = BenchGenFactory.Rows.mix(h ^ (name == null ? NULL : name.hashCode()));
        return BenchGenFactory.Rows.mix(h ^ (tier == null ? NULL : tier));
    }

    static long checksum(RowData row) {
        return checksum(
                row.getLong(0),
                row.getInt(1),
                row.isNullAt(2) ? null : row.getString(2).toString(),
                row.isNullAt(3) ? null : row.getInt(3));
    }

    /**
     * Fails unless the jobs that wrote sink {@code table} since the last check delivered {@code
     * expected}; resets the totals.
     */
    static void check(String table, Totals expected) {
        Totals received = RECEIVED.remove(table);
        received = received == null ? new Totals(0, 0) : received;
        if (received.rows != expected.rows) {
            throw new WrongResultException(
                    String.format(
                            "sink %s received %,d joined rows, expected %,d",
                            table, received.rows, expected.rows));
        }
        if (received.checksum != expected.checksum) {
            throw new WrongResultException(
                    String.format(
                            "sink %s received the expected %,d rows, but their checksum is %d,"
                                    + " expected %d: some row joined the wrong dimension values",
                            table, received.rows, received.checksum, expected.checksum));
        }
    }

    public JoinSinkFactory() {
        super("bench-join-sink", ChangelogMode.insertOnly());
    }

    @Override
    Sink<RowData> sink(Context context) {
        return new JoinSink(context.getObjectIdentifier().getObjectName());
    }

    /** The sink of table {@code table}; its writers add to the table's totals when they close. */
    record JoinSink(String table) implements Sink<RowData> {
        @Override
        public SinkWriter<RowData> createWriter(WriterInitContext context) {
            return new SinkWriter<>() {
                private long rows;
                private long checksum;

                @Override
                public void write(RowData row, Context context) {
                    rows++;
                    checksum += checksum(row);
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {
                    RECEIVED.merge(table, new Totals(rows, checksum), Totals::plus);
                }
            };
        }
    }
}
