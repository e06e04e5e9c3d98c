package dev.tarn.connector.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.api.connector.source.mocks.MockSplitEnumeratorContext;
import org.apache.flink.core.fs.Path;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.groups.SplitEnumeratorMetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A following enumerator's metrics: the snapshots it is behind (planned or assigned but not
 * finished), how long the oldest has waited, the splits not assigned and what the last scan read
 * and planned.
 */
class EnumeratorMetricsTest {

    /** A metric group that keeps the gauges registered with it, to read them. */
    private static final class Gauges extends UnregisteredMetricsGroup
            implements SplitEnumeratorMetricGroup {

        final Map<String, Gauge<?>> byName = new HashMap<>();

        @Override
        public <T, G extends Gauge<T>> G gauge(String name, G gauge) {
            byName.put(name, gauge);
            return gauge;
        }

        @Override
        public <G extends Gauge<Long>> G setUnassignedSplitsGauge(G gauge) {
            return gauge("unassignedSplits", gauge);
        }

        long value(String name) {
            return ((Number) byName.get(name).getValue()).longValue();
        }
    }

    @TempDir File dir;
    private Table table;
    private final Gauges gauges = new Gauges();
    private final MockSplitEnumeratorContext<TarnSplit> context =
            new MockSplitEnumeratorContext<>(2) {
                @Override
                public SplitEnumeratorMetricGroup metricGroup() {
                    return gauges;
                }
            };

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
                                Map.of("bucket", "2", "bucket-key", "id"),
                                null));
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
        table.newCommit("writer").commit(CommitRequest.of(identifier, messages));
    }

    @AfterEach
    void close() throws Exception {
        context.close();
    }

    private List<TarnSplit> assigned() {
        List<TarnSplit> splits = new ArrayList<>();
        for (SplitsAssignment<TarnSplit> a : context.getSplitsAssignmentSequence()) {
            a.assignment().values().forEach(splits::addAll);
        }
        return splits;
    }

    @Test
    void theLagCountsSnapshotsUntilEverySplitOfThemIsFinished() throws Throwable {
        StreamScan scan = table.newStreamScan(null);
        var settings = new TarnContinuousEnumerator.Settings(1000, null, null, false, null);
        TarnContinuousEnumerator enumerator =
                new TarnContinuousEnumerator(context, scan, settings, scan.start(), null);
        enumerator.start();
        // The full snapshot 1, planned, with no reader to take its two splits yet.
        assertThat(gauges.value("snapshotLag")).isEqualTo(1);
        assertThat(gauges.value("unassignedSplits")).isEqualTo(2);
        assertThat(gauges.value("snapshotLagMillis")).isPositive();
        // The start's scan: snapshot 1's manifests, and a file in each bucket.
        assertThat(gauges.value("lastScannedManifests")).isEqualTo(1);
        assertThat(gauges.value("lastScanResultedTableFiles")).isEqualTo(2);
        assertThat(gauges.value("lastScanSkippedTableFiles")).isZero();

        commit(2);
        commit(3);
        context.runPeriodicCallable(0);
        assertThat(gauges.value("snapshotLag")).isEqualTo(3);
        assertThat(gauges.value("unassignedSplits")).isEqualTo(6);
        assertThat(gauges.value("lastScanDuration")).isNotNegative();
        // The discovery's scans: the delta manifest and the two files of each new snapshot.
        assertThat(gauges.value("lastScannedManifests")).isEqualTo(2);
        assertThat(gauges.value("lastScanResultedTableFiles")).isEqualTo(4);

        for (int reader = 0; reader < 2; reader++) {
            context.registerReader(new ReaderInfo(reader, "localhost"));
            enumerator.addReader(reader);
        }
        List<TarnSplit> splits = assigned();
        assertThat(gauges.value("unassignedSplits")).isZero();
        assertThat(gauges.value("snapshotLag")).as("assigned, not finished").isEqualTo(3);

        List<String> first = new ArrayList<>();
        List<String> rest = new ArrayList<>();
        for (TarnSplit s : splits) {
            (s.split().snapshotId() == 1 ? first : rest).add(s.splitId());
        }
        enumerator.handleSourceEvent(0, new SplitsFinished(first, null));
        assertThat(gauges.value("snapshotLag")).isEqualTo(2);

        enumerator.handleSourceEvent(0, new SplitsFinished(rest, null));
        assertThat(gauges.value("snapshotLag")).isZero();
        assertThat(gauges.value("snapshotLagMillis")).isZero();
    }
}
