package dev.tarn.connector.source.enumerator;

import dev.tarn.connector.source.split.SnapshotWatermark;
import dev.tarn.connector.source.split.SplitsFinished;
import dev.tarn.connector.source.split.SplitsRestored;
import dev.tarn.connector.source.split.TarnSplit;
import dev.tarn.format.read.ScanStats;
import dev.tarn.format.read.StreamScan;
import dev.tarn.format.snapshot.Consumers;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.flink.api.common.eventtime.TimestampAssigner;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.SplitsAssignment;

/**
 * Follows a table: plans where the read starts, then probes for each next snapshot on the
 * coordinator's worker thread and turns its changes into splits, which a {@link SplitAssigner}
 * hands to the readers that own their buckets; a {@link ConsumerPosition} records a consumer's
 * position as checkpoints complete.
 *
 * <p>What is checkpointed: the next snapshot to plan, the splits not assigned yet, and the assigned
 * splits not reported finished. Discovery results are applied on the coordinator thread, splits and
 * next snapshot together, so a checkpoint never holds a snapshot half planned. While the table is
 * idle each probe is one file-system request; after {@link #IDLE_PROBES} empty probes the
 * enumerator probes half as often, and it checks for an expired next snapshot (and for a table
 * dropped or renamed under it) at its first empty probe and then at most every {@link
 * #EXPIRY_CHECK_MILLIS}. For {@code incremental-between} it assigns the planned changes in the same
 * way and then ends the read.
 *
 * <p>With a watermark it tells every reader the table's watermark as of a snapshot ({@link
 * SnapshotWatermark}, from {@link TableWatermarks}): after assigning that snapshot's splits, on the
 * same ordered channel, and again to a reader that registers, so a reader that gets no split still
 * advances.
 */
public final class TarnContinuousEnumerator
        implements SplitEnumerator<TarnSplit, TarnEnumeratorState> {

    /** Snapshots planned per discovery at most, so a backlog does not hold the worker long. */
    private static final int MAX_SNAPSHOTS_PER_DISCOVERY = 32;

    /**
     * Empty probes (at the discovery interval) after which the table counts as idle and is probed
     * half as often: a stream of commits is never probed late, a table idle for seconds costs one
     * request a second.
     */
    private static final int IDLE_PROBES = 4;

    /** How often an idle read checks that its next snapshot has not expired under it. */
    private static final long EXPIRY_CHECK_MILLIS = 10_000;

    /**
     * How the enumerator follows the table.
     *
     * @param intervalMillis how often it probes for the next snapshot
     * @param consumers where it records {@code consumerId}'s position, or null without a consumer
     * @param bounded the read is of {@code incremental-between}: restored or planned splits only
     * @param watermarks where the watermark it sends readers comes from, or null for none
     */
    public record Settings(
            long intervalMillis,
            @Nullable Consumers consumers,
            @Nullable String consumerId,
            boolean bounded,
            @Nullable TableWatermarks.Source watermarks) {}

    private final SplitEnumeratorContext<TarnSplit> context;
    private final StreamScan scan;
    private final long intervalMillis;
    @Nullable private final ConsumerPosition consumer;
    private final boolean bounded;
    @Nullable private final TableWatermarks watermarks;
    private final EnumeratorMetrics metrics;

    // Coordinator thread.
    private final SplitAssigner splits;
    private long nextSnapshotId;
    private boolean noMoreSplits;

    // Worker thread (discovery) only.
    private long probeId;
    private long ticks;
    private int emptyProbes;
    // 0: the first empty probe checks, so a read started or restored at a snapshot that expired
    // fails at once rather than an expiry-check interval later.
    private long lastExpiryCheck;

    /**
     * @param start where the read starts, or null if it is restored
     * @param restored the checkpointed state, or null to begin at {@code start}
     */
    public TarnContinuousEnumerator(
            SplitEnumeratorContext<TarnSplit> context,
            StreamScan scan,
            Settings settings,
            @Nullable StreamScan.Start start,
            @Nullable TarnEnumeratorState restored) {
        this.context = context;
        this.scan = scan;
        this.intervalMillis = settings.intervalMillis();
        this.consumer =
                settings.consumers() == null
                        ? null
                        : new ConsumerPosition(settings.consumers(), settings.consumerId());
        this.bounded = settings.bounded();
        if (restored != null) {
            this.nextSnapshotId = restored.nextSnapshotId();
            this.splits = new SplitAssigner(restored);
        } else {
            this.nextSnapshotId = start.nextSnapshotId();
            this.splits = new SplitAssigner();
            long full =
                    start.fullSnapshot() == null
                            ? TimestampAssigner.NO_TIMESTAMP
                            : start.fullSnapshot().commit().timeMillis();
            start.splits().forEach(split -> splits.add(split, full));
            for (StreamScan.Changes changes : start.changes()) {
                long committed = changes.snapshot().commit().timeMillis();
                changes.splits().forEach(split -> splits.add(split, committed));
            }
        }
        this.watermarks =
                settings.watermarks() == null
                        ? null
                        : new TableWatermarks(
                                settings.watermarks(),
                                restored != null ? restored.watermark() : null,
                                restored != null ? restored.reported() : Map.of());
        if (watermarks != null && start != null && start.fullSnapshot() != null) {
            watermarks.planned(start.fullSnapshot());
        }
        this.probeId = this.nextSnapshotId;
        this.metrics = new EnumeratorMetrics(context.metricGroup(), this.nextSnapshotId);
        if (start != null) {
            if (start.fullSnapshot() != null) {
                metrics.planned(start.fullSnapshot());
            }
            start.changes().forEach(changes -> metrics.planned(changes.snapshot()));
            metrics.started(start.stats());
        }
        updatePosition();
    }

    /** Coordinator thread: tells the metrics where the read is. */
    private void updatePosition() {
        metrics.position(splits.firstUnread(nextSnapshotId), splits.pending().size());
    }

    @Override
    public void start() {
        if (!bounded) {
            context.callAsync(this::discover, this::onDiscovered, 0, intervalMillis);
        }
    }

    /** Worker thread: the changes of the snapshots published since the last call. */
    private Discovery discover() {
        ticks++;
        if (emptyProbes >= IDLE_PROBES && ticks % 2 == 0) {
            return new Discovery(List.of(), probeId);
        }
        long start = System.nanoTime();
        List<StreamScan.Changes> found = new ArrayList<>();
        while (found.size() < MAX_SNAPSHOTS_PER_DISCOVERY) {
            var changes = scan.changes(probeId);
            if (changes.isEmpty()) {
                break;
            }
            found.add(changes.get());
            probeId++;
        }
        long now = System.currentTimeMillis();
        if (found.isEmpty()) {
            emptyProbes++;
            if (now - lastExpiryCheck >= EXPIRY_CHECK_MILLIS) {
                lastExpiryCheck = now;
                scan.checkNotExpired(probeId);
            }
        } else {
            emptyProbes = 0;
            lastExpiryCheck = now;
            // Fewer than the most per discovery: the last found is the newest there is.
            long latest =
                    found.size() < MAX_SNAPSHOTS_PER_DISCOVERY
                            ? probeId - 1
                            : scan.latestSnapshotId().orElse(probeId - 1);
            ScanStats stats = ScanStats.NONE;
            for (StreamScan.Changes changes : found) {
                stats = stats.plus(changes.stats());
            }
            metrics.scanned((System.nanoTime() - start) / 1_000_000, stats, latest);
        }
        return new Discovery(found, probeId);
    }

    /** Coordinator thread: the discovered splits become pending, with the next id, at once. */
    private void onDiscovered(@Nullable Discovery discovery, @Nullable Throwable error) {
        if (error != null) {
            throw new IllegalStateException(
                    "Cannot follow the table: " + error.getMessage(), error);
        }
        for (StreamScan.Changes changes : discovery.changes()) {
            long committed = changes.snapshot().commit().timeMillis();
            changes.splits().forEach(split -> splits.add(split, committed));
            metrics.planned(changes.snapshot());
            if (watermarks != null) {
                watermarks.planned(changes.snapshot());
            }
        }
        nextSnapshotId = discovery.nextSnapshotId();
        assignPending();
        sendWatermarkIfAdvanced();
        updatePosition();
    }

    /**
     * Tells every reader the table's watermark if it advanced. Sent after the splits of the
     * snapshots it covers, on the same ordered channel, so a reader knows which of its splits come
     * before it.
     *
     * @return whether it was sent
     */
    private boolean sendWatermarkIfAdvanced() {
        SnapshotWatermark advanced =
                watermarks == null
                        ? null
                        : watermarks.advance(
                                nextSnapshotId - 1, splits.firstUnread(nextSnapshotId));
        if (advanced == null) {
            return false;
        }
        for (int reader : context.registeredReaders().keySet()) {
            context.sendEventToSourceReader(reader, advanced);
        }
        return true;
    }

    private void assignPending() {
        var registered = context.registeredReaders().keySet();
        Map<Integer, List<TarnSplit>> assignment =
                splits.assign(registered, context.currentParallelism());
        if (!assignment.isEmpty()) {
            context.assignSplits(new SplitsAssignment<>(assignment));
        }
        if (bounded && !splits.hasPending()) {
            for (int reader : registered) {
                context.signalNoMoreSplits(reader);
            }
            noMoreSplits = true;
        }
    }

    @Override
    public void handleSplitRequest(int subtaskId, @Nullable String requesterHostname) {
        // Splits are sent, not asked for.
    }

    @Override
    public void addSplitsBack(List<TarnSplit> splits, int subtaskId) {
        // Assigned after the last checkpoint: they come before any split planned after them.
        this.splits.addBack(splits);
        noMoreSplits = false;
        updatePosition();
    }

    @Override
    public void addReader(int subtaskId) {
        assignPending();
        updatePosition();
        if (watermarks != null && !sendWatermarkIfAdvanced() && watermarks.last() != null) {
            context.sendEventToSourceReader(subtaskId, watermarks.last());
        }
        if (noMoreSplits) {
            context.signalNoMoreSplits(subtaskId);
        }
    }

    @Override
    public void handleSourceEvent(int subtaskId, SourceEvent event) {
        if (event instanceof SplitsRestored restored) {
            if (splits.restored(subtaskId, restored.splitIds(), context.currentParallelism())) {
                sendWatermarkIfAdvanced();
            }
            updatePosition();
            return;
        }
        if (event instanceof SplitsFinished finished) {
            for (long snapshot : splits.finished(finished.splitIds())) {
                if (watermarks != null) {
                    watermarks.finished(snapshot, finished.watermark());
                }
            }
            sendWatermarkIfAdvanced();
            updatePosition();
        }
    }

    @Override
    public TarnEnumeratorState snapshotState(long checkpointId) {
        if (consumer != null) {
            consumer.checkpointed(checkpointId, splits.firstUnread(nextSnapshotId));
        }
        return new TarnEnumeratorState(
                nextSnapshotId,
                splits.pending(),
                splits.inFlight(),
                watermarks == null ? null : watermarks.watermark(),
                watermarks == null ? Map.of() : watermarks.reported());
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        if (consumer != null) {
            consumer.completed(checkpointId, context);
        }
    }

    @Override
    public void close() throws IOException {}

    private record Discovery(List<StreamScan.Changes> changes, long nextSnapshotId) {}
}
