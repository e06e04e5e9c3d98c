package dev.tarn.connector.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.connector.source.split.SnapshotWatermark;
import dev.tarn.connector.source.split.SplitsFinished;
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
import org.apache.flink.api.connector.source.SourceEvent;
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
 * What the following enumerator tells its readers of the table's watermark, over a table of one
 * bucket read by two readers, one of which never gets a split: both hear every advance, a reader
 * that registers late hears the last one, and a restored enumerator still knows it.
 */
class EnumeratorWatermarkTest {

    @TempDir File dir;
    private Table table;
    private final MockSplitEnumeratorContext<TarnSplit> context =
            new MockSplitEnumeratorContext<>(2);

    @BeforeEach
    void setUp() {
        RowType type = RowType.of(new LogicalType[] {new BigIntType()}, new String[] {"id"});
        table =
                Table.create(
                        FileIO.flinkFileSystems(),
                        new Path(dir.toURI()),
                        "db.t",
                        TableSchema.create(
                                type, List.of(), List.of(), Map.of("bucket", "1"), null));
    }

    @AfterEach
    void close() throws Exception {
        context.close();
    }

    private void commit(long identifier, Long watermark, long... ids) throws Exception {
        List<CommitMessage> messages;
        try (TableWrite write = table.newWrite()) {
            for (long id : ids) {
                write.write(GenericRowData.of(id));
            }
            messages = write.prepareCommit();
        }
        table.newCommit("writer")
                .commit(CommitRequest.of(identifier, messages).withWatermark(watermark));
    }

    private TarnContinuousEnumerator enumerator(
            TableWatermarks.Source source, TarnEnumeratorState restored) {
        StreamScan scan = table.newStreamScan(null);
        var settings = new TarnContinuousEnumerator.Settings(1000, null, null, false, source);
        return new TarnContinuousEnumerator(
                context, scan, settings, restored == null ? scan.start() : null, restored);
    }

    private List<SourceEvent> events(int reader) throws Exception {
        return context.getSentSourceEvent().getOrDefault(reader, List.of());
    }

    private List<TarnSplit> assigned(int reader) {
        List<TarnSplit> splits = new ArrayList<>();
        for (SplitsAssignment<TarnSplit> a : context.getSplitsAssignmentSequence()) {
            splits.addAll(a.assignment().getOrDefault(reader, List.of()));
        }
        return splits;
    }

    @Test
    void everyReaderHearsTheSnapshotsWatermarkThoughOnlyOneReadsThem() throws Throwable {
        commit(1, 1_000L, 1, 2);
        TarnContinuousEnumerator e = enumerator(TableWatermarks.Source.SNAPSHOTS, null);
        context.registerReader(new ReaderInfo(0, "localhost"));
        e.addReader(0);
        context.registerReader(new ReaderInfo(1, "localhost"));
        e.addReader(1);
        e.start();
        assertThat(events(0)).containsExactly(new SnapshotWatermark(1, 1_000));
        assertThat(events(1)).containsExactly(new SnapshotWatermark(1, 1_000));

        commit(2, 3_000L, 3);
        commit(3, 5_000L);
        context.runPeriodicCallable(0);
        assertThat(events(0)).endsWith(new SnapshotWatermark(3, 5_000));
        assertThat(events(1)).endsWith(new SnapshotWatermark(3, 5_000));
        int reading = assigned(0).isEmpty() ? 1 : 0;
        assertThat(assigned(1 - reading)).as("the idle reader's splits").isEmpty();
        assertThat(assigned(reading))
                .extracting(s -> s.split().snapshotId())
                .containsExactly(1L, 2L);

        TarnEnumeratorState state = e.snapshotState(1);
        assertThat(state.watermark()).isEqualTo(5_000L);
        TarnEnumeratorState restored =
                new TarnEnumeratorStateSerializer()
                        .deserialize(3, new TarnEnumeratorStateSerializer().serialize(state));
        assertThat(restored).isEqualTo(state);
    }

    @Test
    void aDeclaredWatermarkIsTheLowestReportOnceASnapshotIsReadWhole() throws Throwable {
        TarnContinuousEnumerator e = enumerator(TableWatermarks.Source.READERS, null);
        context.registerReader(new ReaderInfo(0, "localhost"));
        e.addReader(0);
        context.registerReader(new ReaderInfo(1, "localhost"));
        e.addReader(1);
        e.start();
        commit(1, null, 1, 2);
        context.runPeriodicCallable(0);
        int reading = assigned(0).isEmpty() ? 1 : 0;
        List<TarnSplit> splits = assigned(reading);
        assertThat(splits).hasSize(1);
        assertThat(events(0)).isEmpty();

        e.handleSourceEvent(reading, new SplitsFinished(List.of(splits.get(0).splitId()), 1_500L));
        assertThat(events(reading)).containsExactly(new SnapshotWatermark(1, 1_500));
        assertThat(events(1 - reading)).containsExactly(new SnapshotWatermark(1, 1_500));

        // A reader that registers again (after a failover) hears the last watermark.
        context.registerReader(new ReaderInfo(1 - reading, "localhost"));
        e.addReader(1 - reading);
        assertThat(events(1 - reading))
                .hasSize(2)
                .last()
                .isEqualTo(new SnapshotWatermark(1, 1_500));

        // Restored from a checkpoint taken now, it sends it on as readers register.
        TarnEnumeratorState state = e.snapshotState(1);
        TarnContinuousEnumerator restored = enumerator(TableWatermarks.Source.READERS, state);
        restored.addReader(reading);
        assertThat(events(reading)).hasSize(2).last().isEqualTo(new SnapshotWatermark(1, 1_500));
    }
}
