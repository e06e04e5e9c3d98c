package dev.tarn.connector.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.connector.source.split.SplitsRestored;
import dev.tarn.connector.source.split.TarnSplit;
import dev.tarn.format.Table;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.read.StreamScan;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.write.CommitMessage;
import dev.tarn.format.write.TableWrite;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.api.connector.source.mocks.MockSplitEnumeratorContext;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restored following enumerator over a table of two buckets read by two readers: a split it
 * checkpointed in flight that a reader finished before the readers' checkpoint (so no reader
 * restored it, and its report was lost) stops counting as in flight once every reader has said what
 * it restored, and with it the position a consumer records moves on.
 */
class EnumeratorRestoreTest {

    @TempDir File dir;
    private Table table;
    private final MockSplitEnumeratorContext<TarnSplit> context =
            new MockSplitEnumeratorContext<>(2);

    @BeforeEach
    void setUp() throws Exception {
        RowType type = RowType.of(new LogicalType[] {new BigIntType()}, new String[] {"id"});
        table =
                Table.create(
                        FileIO.flinkFileSystems(),
                        new Path(dir.toURI()),
                        "db.t",
                        TableSchema.create(
                                type, List.of(), List.of(), Map.of("bucket", "2"), null));
        commit(1);
    }

    private void commit(long identifier) throws Exception {
        List<CommitMessage> messages;
        try (TableWrite write = table.newWrite()) {
            for (long id = 0; id < 20; id++) {
                write.write(GenericRowData.of(identifier * 100 + id));
            }
            messages = write.prepareCommit();
        }
        table.newCommit("writer")
                .commit(CommitRequest.of(identifier, messages).withWatermark(null));
    }

    @AfterEach
    void close() throws Exception {
        context.close();
    }

    private TarnContinuousEnumerator enumerator(TarnEnumeratorState restored) {
        StreamScan scan = table.newStreamScan(null);
        var settings = new TarnContinuousEnumerator.Settings(1000, null, null, false, null);
        return new TarnContinuousEnumerator(
                context, scan, settings, restored == null ? scan.start() : null, restored);
    }

    private List<TarnSplit> assigned() {
        List<TarnSplit> splits = new ArrayList<>();
        for (SplitsAssignment<TarnSplit> a : context.getSplitsAssignmentSequence()) {
            a.assignment().values().forEach(splits::addAll);
        }
        return splits;
    }

    @Test
    void aSplitNoReaderRestoredIsNoLongerInFlight() throws Throwable {
        TarnContinuousEnumerator first = enumerator(null);
        for (int reader = 0; reader < 2; reader++) {
            context.registerReader(new ReaderInfo(reader, "localhost"));
            first.addReader(reader);
        }
        first.start();
        commit(2);
        context.runPeriodicCallable(0);
        List<TarnSplit> splits = assigned();
        assertThat(splits).extracting(s -> s.split().snapshotId()).contains(1L, 2L);
        TarnSplit early =
                splits.stream().filter(s -> s.split().snapshotId() == 1).findFirst().orElseThrow();
        TarnEnumeratorState checkpoint = first.snapshotState(1);
        assertThat(checkpoint.inFlight()).containsKey(early.splitId());

        // Every split but `early` was restored by a reader; `early` was finished in between.
        TarnContinuousEnumerator restored = enumerator(checkpoint);
        List<String> held = new ArrayList<>();
        splits.stream().filter(s -> s != early).forEach(s -> held.add(s.splitId()));
        restored.handleSourceEvent(0, new SplitsRestored(held));
        assertThat(restored.snapshotState(2).inFlight())
                .as("before every reader reported")
                .containsKey(early.splitId());

        restored.handleSourceEvent(1, new SplitsRestored(List.of()));

        TarnEnumeratorState after = restored.snapshotState(3);
        assertThat(after.inFlight().keySet())
                .as("the splits the readers hold")
                .containsExactlyInAnyOrderElementsOf(held);
        assertThat(after.inFlight()).doesNotContainKey(early.splitId());
    }

    @Test
    void aFreshEnumeratorIgnoresWhatReadersRestored() throws Throwable {
        TarnContinuousEnumerator fresh = enumerator(null);
        for (int reader = 0; reader < 2; reader++) {
            context.registerReader(new ReaderInfo(reader, "localhost"));
            fresh.addReader(reader);
        }
        fresh.start();
        context.runPeriodicCallable(0);
        int inFlight = fresh.snapshotState(1).inFlight().size();

        fresh.handleSourceEvent(0, new SplitsRestored(List.of()));
        fresh.handleSourceEvent(1, new SplitsRestored(List.of()));

        assertThat(fresh.snapshotState(2).inFlight()).hasSize(inFlight).isNotEmpty();
    }
}
