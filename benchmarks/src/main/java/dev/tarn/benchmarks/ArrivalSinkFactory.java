package dev.tarn.benchmarks;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * {@code 'connector' = 'bench-arrivals'}: a sink that drops every row, of any row kind, after
 * recording it in the {@link Arrivals} of its table in this JVM, where the benchmark's cluster
 * runs: the benchmark sees rows arrive while the streaming job runs, and when. The first column (an
 * INT or a BIGINT) is the key or batch id it records. A writer takes the arrivals registered by
 * {@link #expect} when it starts, so a job still cancelling cannot count into the next run's.
 */
public final class ArrivalSinkFactory extends BenchSinkFactory {

    private static final Map<String, Arrivals> ARRIVALS = new ConcurrentHashMap<>();

    /**
     * Registers what the next job writing into sink {@code table} delivers.
     *
     * @param target rows after which waiters of {@link Arrivals#awaitTarget} are released
     * @param perBatch whether to record the arrival of each value of the first column
     */
    static Arrivals expect(String table, long target, boolean perBatch) {
        Arrivals arrivals = new Arrivals(target, perBatch);
        ARRIVALS.put(table, arrivals);
        return arrivals;
    }

    public ArrivalSinkFactory() {
        super("bench-arrivals", ChangelogMode.all());
    }

    @Override
    Sink<RowData> sink(Context context) {
        LogicalTypeRoot first =
                context.getPhysicalRowDataType()
                        .getChildren()
                        .get(0)
                        .getLogicalType()
                        .getTypeRoot();
        if (first != LogicalTypeRoot.INTEGER && first != LogicalTypeRoot.BIGINT) {
            throw new IllegalArgumentException(
                    "The first column of bench-arrivals sink "
                            + context.getObjectIdentifier()
                            + " must be an INT or BIGINT key, not "
                            + first);
        }
        return new ArrivalSink(
                context.getObjectIdentifier().getObjectName(), first == LogicalTypeRoot.INTEGER);
    }

    private record ArrivalSink(String table, boolean intKey) implements Sink<RowData> {
        @Override
        public SinkWriter<RowData> createWriter(WriterInitContext context) {
            Arrivals arrivals = ARRIVALS.get(table);
            if (arrivals == null) {
                throw new IllegalStateException(
                        "No arrivals registered for bench-arrivals sink " + table);
            }
            return new SinkWriter<>() {
                @Override
                public void write(RowData row, Context context) {
                    arrivals.record(row.getRowKind(), intKey ? row.getInt(0) : row.getLong(0));
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }
    }
}
