package dev.tarn.benchmarks;

import java.util.ArrayDeque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource.NumberSequenceSplit;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.writer.BinaryRowWriter;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.DataType;

/**
 * {@code 'connector' = 'bench-replay'}: {@code rows} rows of the append benchmark's 8 columns
 * emitted from memory, with nothing to read or decode: the rows are binary rows made once per JVM
 * (the generator's first {@value #DISTINCT} rows, over and over), handed to Flink a batch of
 * {@value #BATCH} per call of the reader as Tarn's reader hands its decoded batches. A scan into a
 * blackhole through it costs what Flink's job and its per-row path from a source to a sink cost:
 * the floor under any reader's scan of the same rows in the same job.
 */
public final class ReplaySourceFactory implements DynamicTableSourceFactory {

    private static final int DISTINCT = 4096;
    private static final int BATCH = 1024;

    @Override
    public String factoryIdentifier() {
        return "bench-replay";
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(BenchGenFactory.ROWS);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of();
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        helper.validate();
        List<String> names = DataType.getFieldNames(context.getPhysicalRowDataType());
        if (names.size() != 8) {
            throw new IllegalArgumentException(
                    "bench-replay table "
                            + context.getObjectIdentifier()
                            + " must have the append benchmark's 8 columns ("
                            + AppendBenchmark.COLUMNS
                            + "), has "
                            + names);
        }
        return new TableSource(helper.getOptions().get(BenchGenFactory.ROWS));
    }

    /** The generator's first rows as binary rows, made on first use (once per JVM). */
    static BinaryRowData[] rows() {
        return Distinct.ROWS;
    }

    /** Holds the rows; its class is initialized, and the rows made, on the first call of rows(). */
    private static final class Distinct {
        static final BinaryRowData[] ROWS = build();

        private static BinaryRowData[] build() {
            BenchGenFactory.Rows generator = new BenchGenFactory.Rows(DISTINCT, 0);
            BinaryRowData[] built = new BinaryRowData[DISTINCT];
            for (int i = 0; i < DISTINCT; i++) {
                built[i] = binary(generator.row(i));
            }
            return built;
        }
    }

    private static BinaryRowData binary(RowData row) {
        BinaryRowData binary = new BinaryRowData(8);
        BinaryRowWriter writer = new BinaryRowWriter(binary, 64);
        writer.writeLong(0, row.getLong(0));
        writer.writeInt(1, row.getInt(1));
        writer.writeString(2, row.getString(2));
        writer.writeString(3, row.getString(3));
        writer.writeDouble(4, row.getDouble(4));
        writer.writeInt(5, row.getInt(5));
        TimestampData ts = row.getTimestamp(6, 3);
        writer.writeTimestamp(6, ts, 3);
        writer.writeBoolean(7, row.getBoolean(7));
        writer.complete();
        return binary;
    }

    private record TableSource(long rows) implements ScanTableSource {
        @Override
        public ChangelogMode getChangelogMode() {
            return ChangelogMode.insertOnly();
        }

        @Override
        public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
            return SourceProvider.of(new Replay(rows));
        }

        @Override
        public DynamicTableSource copy() {
            return this;
        }

        @Override
        public String asSummaryString() {
            return "bench-replay";
        }
    }

    /** Splits and enumerator of Flink's number sequence source; the reader is {@link Reader}. */
    private static final class Replay
            implements Source<
                    RowData, NumberSequenceSplit, java.util.Collection<NumberSequenceSplit>> {
        private static final long serialVersionUID = 1L;

        private final NumberSequenceSource sequence;

        Replay(long rows) {
            this.sequence = new NumberSequenceSource(0, rows - 1);
        }

        @Override
        public Boundedness getBoundedness() {
            return Boundedness.BOUNDED;
        }

        @Override
        public SourceReader<RowData, NumberSequenceSplit> createReader(
                SourceReaderContext context) {
            return new Reader(context);
        }

        @Override
        public SplitEnumerator<NumberSequenceSplit, java.util.Collection<NumberSequenceSplit>>
                createEnumerator(SplitEnumeratorContext<NumberSequenceSplit> context) {
            return sequence.createEnumerator(context);
        }

        @Override
        public SplitEnumerator<NumberSequenceSplit, java.util.Collection<NumberSequenceSplit>>
                restoreEnumerator(
                        SplitEnumeratorContext<NumberSequenceSplit> context,
                        java.util.Collection<NumberSequenceSplit> checkpoint) {
            return sequence.restoreEnumerator(context, checkpoint);
        }

        @Override
        public SimpleVersionedSerializer<NumberSequenceSplit> getSplitSerializer() {
            return sequence.getSplitSerializer();
        }

        @Override
        public SimpleVersionedSerializer<java.util.Collection<NumberSequenceSplit>>
                getEnumeratorCheckpointSerializer() {
            return sequence.getEnumeratorCheckpointSerializer();
        }
    }

    /**
     * Emits each split's rows, {@value #BATCH} per call, then asks for the next split. Keeps no
     * state in checkpoints: the benchmark's jobs are bounded and never restored.
     */
    private static final class Reader implements SourceReader<RowData, NumberSequenceSplit> {
        private final SourceReaderContext context;
        private final ArrayDeque<NumberSequenceSplit> splits = new ArrayDeque<>();
        private BinaryRowData[] rows;
        private CompletableFuture<Void> available = new CompletableFuture<>();
        private boolean reading;
        private boolean noMoreSplits;
        private long next;
        private long end;

        Reader(SourceReaderContext context) {
            this.context = context;
        }

        @Override
        public void start() {
            rows = rows();
            context.sendSplitRequest();
        }

        @Override
        public InputStatus pollNext(ReaderOutput<RowData> output) {
            if (!reading) {
                NumberSequenceSplit split = splits.poll();
                if (split == null) {
                    if (noMoreSplits) {
                        return InputStatus.END_OF_INPUT;
                    }
                    available = new CompletableFuture<>();
                    return InputStatus.NOTHING_AVAILABLE;
                }
                next = split.from();
                end = split.to() + 1;
                reading = true;
            }
            long stop = Math.min(end, next + BATCH);
            BinaryRowData[] rows = this.rows;
            for (; next < stop; next++) {
                output.collect(rows[(int) (next & (DISTINCT - 1))]);
            }
            if (next == end) {
                reading = false;
                context.sendSplitRequest();
            }
            return InputStatus.MORE_AVAILABLE;
        }

        @Override
        public List<NumberSequenceSplit> snapshotState(long checkpointId) {
            return List.of();
        }

        @Override
        public CompletableFuture<Void> isAvailable() {
            return available;
        }

        @Override
        public void addSplits(List<NumberSequenceSplit> added) {
            splits.addAll(added);
            available.complete(null);
        }

        @Override
        public void notifyNoMoreSplits() {
            noMoreSplits = true;
            available.complete(null);
        }

        @Override
        public void close() {}
    }
}
