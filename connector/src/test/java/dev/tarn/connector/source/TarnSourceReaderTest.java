package dev.tarn.connector.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.connector.source.split.TarnSplit;
import dev.tarn.format.Table;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.TableScan;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.write.CommitMessage;
import dev.tarn.format.write.TableWrite;
import java.io.File;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.LongStream;
import org.apache.flink.api.common.eventtime.TimestampAssigner;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.groups.SourceReaderMetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.SimpleUserCodeClassLoader;
import org.apache.flink.util.UserCodeClassLoader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A source subtask reading one snapshot on three fetcher threads, driven as Flink drives it, with
 * the test answering its split requests as the enumerator does: it keeps one split per thread
 * requested or held, never more, emits every row of every split once, and under a pushed-down limit
 * its threads together stop at the limit.
 */
class TarnSourceReaderTest {

    private static final int THREADS = 3;
    private static final int COMMITS = 3;
    private static final int ROWS_PER_COMMIT = 3000;

    @TempDir File dir;
    private Table table;
    private List<TarnSplit> splits;

    @BeforeEach
    void setUp() throws Exception {
        RowType type = RowType.of(new LogicalType[] {new BigIntType()}, new String[] {"id"});
        table =
                Table.create(
                        FileIO.flinkFileSystems(),
                        new Path(dir.toURI()),
                        "db.t",
                        TableSchema.create(
                                type,
                                List.of(),
                                List.of(),
                                Map.of(
                                        "bucket", "4",
                                        "bucket-key", "id",
                                        // A split per file: 12 splits of 4 buckets.
                                        "source.split.target-size", "1b"),
                                null));
        for (int commit = 0; commit < COMMITS; commit++) {
            List<CommitMessage> messages;
            try (TableWrite write = table.newWrite()) {
                for (long id = 0; id < ROWS_PER_COMMIT; id++) {
                    write.write(GenericRowData.of(commit * ROWS_PER_COMMIT + id));
                }
                messages = write.prepareCommit();
            }
            table.newCommit("writer").commit(CommitRequest.of(commit, messages));
        }
        splits = new ArrayList<>();
        TableScan.Plan plan = table.newScan().plan();
        for (Split split : plan.splits()) {
            splits.add(
                    TarnSplit.of(
                            String.valueOf(splits.size()),
                            split,
                            plan.snapshot().commit().timeMillis()));
        }
        assertThat(splits).hasSize(COMMITS * 4);
    }

    @Test
    void keepsOneSplitPerThreadAndEmitsEveryRowOnce() throws Exception {
        Ids output = read(Long.MAX_VALUE);
        assertThat(output.ids)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.range(0, COMMITS * ROWS_PER_COMMIT).boxed().toList());
        assertThat(output.timestamps)
                .as("every row carries the commit time of the snapshot read")
                .containsExactly(table.metadata().snapshot(COMMITS).commit().timeMillis());
    }

    @Test
    void theThreadsOfASubtaskShareOneLimit() throws Exception {
        List<Long> ids = read(2500).ids;
        assertThat(ids).hasSize(2500).doesNotHaveDuplicates();
        assertThat(ids).allMatch(id -> id >= 0 && id < COMMITS * ROWS_PER_COMMIT);
    }

    /** Reads the table's splits with one reader, answering its requests in order. */
    private Ids read(long limit) throws Exception {
        Requests context = new Requests();
        TarnSource source =
                new TarnSource(
                        table.withDynamicOptions(
                                Map.of("read.decode-threads", String.valueOf(THREADS))),
                        table.schema().rowType(),
                        null,
                        limit,
                        TarnSource.Mode.SNAPSHOT,
                        TarnSource.Watermarks.NONE,
                        false);
        Queue<TarnSplit> pending = new ArrayDeque<>(splits);
        Ids output = new Ids();
        int answered = 0;
        int mostHeld = 0;
        int mostThreads = 0;
        try (SourceReader<RowData, TarnSplit> reader = source.createReader(context)) {
            reader.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (true) {
                TarnSourceReader tarn = (TarnSourceReader) reader;
                int held = tarn.getNumberOfCurrentlyAssignedSplits();
                assertThat(held + context.requests - answered)
                        .as("splits held and asked for")
                        .isLessThanOrEqualTo(THREADS);
                mostHeld = Math.max(mostHeld, held);
                if (held == THREADS && mostThreads < THREADS) {
                    mostThreads = Math.max(mostThreads, fetcherThreads());
                }
                // The enumerator answers each request: a split, or the end.
                while (answered < context.requests) {
                    answered++;
                    TarnSplit next = pending.poll();
                    if (next != null) {
                        reader.addSplits(List.of(next));
                    } else {
                        reader.notifyNoMoreSplits();
                    }
                }
                InputStatus status = reader.pollNext(output);
                if (status == InputStatus.END_OF_INPUT) {
                    break;
                }
                if (status == InputStatus.NOTHING_AVAILABLE) {
                    try {
                        reader.isAvailable().get(50, TimeUnit.MILLISECONDS);
                    } catch (TimeoutException e) {
                        // Look at the requests again.
                    }
                }
                assertThat(System.nanoTime()).as("the read ended in time").isLessThan(deadline);
            }
        }
        assertThat(pending).as("splits never asked for").isEmpty();
        assertThat(mostHeld).as("splits held at once").isEqualTo(THREADS);
        assertThat(mostThreads).as("fetcher threads reading at once").isEqualTo(THREADS);
        return output;
    }

    /** The fetcher threads of readers made on this thread (Flink names them after it). */
    private static int fetcherThreads() {
        String name = "Source Data Fetcher for " + Thread.currentThread().getName();
        return (int)
                Thread.getAllStackTraces().keySet().stream()
                        .filter(t -> t.isAlive() && t.getName().equals(name))
                        .count();
    }

    /** The reader's side of the enumerator: counts the split requests. */
    private static final class Requests implements SourceReaderContext {
        private int requests;

        @Override
        public void sendSplitRequest() {
            requests++;
        }

        @Override
        public SourceReaderMetricGroup metricGroup() {
            return UnregisteredMetricsGroup.createSourceReaderMetricGroup();
        }

        @Override
        public Configuration getConfiguration() {
            return new Configuration();
        }

        @Override
        public String getLocalHostName() {
            return "localhost";
        }

        @Override
        public int getIndexOfSubtask() {
            return 0;
        }

        @Override
        public int currentParallelism() {
            return 1;
        }

        @Override
        public void sendSourceEventToCoordinator(SourceEvent sourceEvent) {}

        @Override
        public UserCodeClassLoader getUserCodeClassLoader() {
            return SimpleUserCodeClassLoader.create(getClass().getClassLoader());
        }
    }

    /** Collects the id and the timestamp of each row emitted (rows are views, reused). */
    private static final class Ids implements ReaderOutput<RowData> {
        private final List<Long> ids = new ArrayList<>();
        private final Set<Long> timestamps = new HashSet<>();

        @Override
        public void collect(RowData row) {
            collect(row, TimestampAssigner.NO_TIMESTAMP);
        }

        @Override
        public void collect(RowData row, long timestamp) {
            ids.add(row.getLong(0));
            timestamps.add(timestamp);
        }

        @Override
        public void emitWatermark(Watermark watermark) {}

        @Override
        public void markIdle() {}

        @Override
        public void markActive() {}

        @Override
        public SourceOutput<RowData> createOutputForSplit(String splitId) {
            return this;
        }

        @Override
        public void releaseOutputForSplit(String splitId) {}
    }
}
