package dev.tarn.connector.source;

import dev.tarn.format.bucket.BucketChannels;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.StreamScan;
import dev.tarn.format.snapshot.Consumers;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import javax.annotation.Nullable;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.SplitsAssignment;

/**
 * Follows a table: plans where the read starts, then probes for each next snapshot on the
 * coordinator's worker thread and turns its changes into splits. Every split of one bucket of one
 * partition goes to the same reader, which reads its splits in the order assigned, so the changes
 * of a key arrive in snapshot order; splits of an unbucketed append table go round robin.
 *
 * <p>What is checkpointed: the next snapshot to plan, the splits not assigned yet, and the assigned
 * splits not reported finished. Discovery results are applied on the coordinator thread, splits and
 * next snapshot together, so a checkpoint never holds a snapshot half planned. Restored, it drops
 * the in-flight splits that no reader restored ({@link SplitsRestored}) once all have reported.
 * While the table is idle each probe is one file-system request; after {@link #IDLE_PROBES} empty
 * probes the enumerator probes half as often, and it checks for an expired next snapshot (and for a
 * table dropped or renamed under it) at its first empty probe and then at most every {@link
 * #EXPIRY_CHECK_MILLIS}. For {@code incremental-between} it assigns the planned changes in the same
 * way and then ends the read.
 *
 * <p>With a watermark it tells every reader the table's watermark as of a snapshot ({@link
 * SnapshotWatermark}, from {@link TableWatermarks}): after assigning that snapshot's splits, on the
 * same ordered channel, and again to a reader that registers, so a reader that gets no split still
 * advances.
 */
final class TarnContinuousEnumerator implements SplitEnumerator<TarnSplit, TarnEnumeratorState> {

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
    record Settings(
            long intervalMillis,
            @Nullable Consumers consumers,
            @Nullable String consumerId,
            boolean bounded,
            @Nullable TableWatermarks.Source watermarks) {}

    private final SplitEnumeratorContext<TarnSplit> context;
    private final StreamScan scan;
    private final long intervalMillis;
    @Nullable private final Consumers consumers;
    @Nullable private final String consumerId;
    private final boolean bounded;
    @Nullable private final TableWatermarks watermarks;

    // Coordinator thread.
    private final LinkedList<TarnSplit> pending = new LinkedList<>();
    private final Map<String, Long> inFlight = new HashMap<>();
    private final NavigableMap<Long, Long> positionAtCheckpoint = new TreeMap<>();
    private long nextSnapshotId;
    private long splitCounter;
    private int roundRobin;
    private boolean noMoreSplits;
    // After a restore, until every reader said which splits it restored: the restored in-flight
    // splits and the readers that reported, and the splits they hold. Null otherwise.
    @Nullable private Set<String> restoredInFlight;
    private final Set<Integer> restoredReports = new HashSet<>();
    private final Set<String> held = new HashSet<>();

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
    TarnContinuousEnumerator(
            SplitEnumeratorContext<TarnSplit> context,
            StreamScan scan,
            Settings settings,
            @Nullable StreamScan.Start start,
            @Nullable TarnEnumeratorState restored) {
        this.context = context;
        this.scan = scan;
        this.intervalMillis = settings.intervalMillis();
        this.consumers = settings.consumers();
        this.consumerId = settings.consumerId();
        this.bounded = settings.bounded();
        if (restored != null) {
            this.nextSnapshotId = restored.nextSnapshotId();
            this.pending.addAll(restored.pending());
            this.inFlight.putAll(restored.inFlight());
            this.splitCounter = restored.pending().size() + restored.inFlight().size();
            this.restoredInFlight = new HashSet<>(restored.inFlight().keySet());
        } else {
            this.nextSnapshotId = start.nextSnapshotId();
            start.splits().forEach(this::addPending);
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
            changes.splits().forEach(this::addPending);
            if (watermarks != null) {
                watermarks.planned(changes.snapshot());
            }
        }
        nextSnapshotId = discovery.nextSnapshotId();
        assignPending();
        sendWatermarkIfAdvanced();
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
                watermarks == null ? null : watermarks.advance(nextSnapshotId - 1, firstUnread());
        if (advanced == null) {
            return false;
        }
        for (int reader : context.registeredReaders().keySet()) {
            context.sendEventToSourceReader(reader, advanced);
        }
        return true;
    }

    /** The lowest snapshot id of a split not read to its end, or the next snapshot to plan. */
    private long firstUnread() {
        long first = nextSnapshotId;
        for (TarnSplit split : pending) {
            first = Math.min(first, split.split().snapshotId());
        }
        for (long snapshot : inFlight.values()) {
            first = Math.min(first, snapshot);
        }
        return first;
    }

    private void addPending(Split split) {
        pending.add(TarnSplit.of(split.snapshotId() + "-" + splitCounter++, split));
    }

    private void assignPending() {
        Map<Integer, List<TarnSplit>> assignment = new HashMap<>();
        var registered = context.registeredReaders();
        int parallelism = context.currentParallelism();
        var it = pending.iterator();
        while (it.hasNext()) {
            TarnSplit split = it.next();
            int owner = ownerOf(split.split(), parallelism);
            if (registered.containsKey(owner)) {
                assignment.computeIfAbsent(owner, o -> new ArrayList<>()).add(split);
                inFlight.put(split.id(), split.split().snapshotId());
                it.remove();
            }
        }
        if (!assignment.isEmpty()) {
            context.assignSplits(new SplitsAssignment<>(assignment));
        }
        if (bounded && pending.isEmpty()) {
            for (int reader : registered.keySet()) {
                context.signalNoMoreSplits(reader);
            }
            noMoreSplits = true;
        }
    }

    /**
     * The reader of a split: by bucket, so one bucket's changes stay in order on one reader; round
     * robin for an unbucketed append table, whose files have no order to keep.
     */
    private int ownerOf(Split split, int parallelism) {
        if (split.totalBuckets() < 0) {
            return Math.floorMod(roundRobin++, parallelism);
        }
        return BucketChannels.channel(split.partition(), split.bucket(), parallelism);
    }

    @Override
    public void handleSplitRequest(int subtaskId, @Nullable String requesterHostname) {
        // Splits are sent, not asked for.
    }

    @Override
    public void addSplitsBack(List<TarnSplit> splits, int subtaskId) {
        // Assigned after the last checkpoint: they come before any split planned after them.
        for (int i = splits.size() - 1; i >= 0; i--) {
            inFlight.remove(splits.get(i).id());
            pending.addFirst(splits.get(i));
        }
        noMoreSplits = false;
    }

    @Override
    public void addReader(int subtaskId) {
        assignPending();
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
            dropSplitsNoReaderHolds(subtaskId, restored);
            return;
        }
        if (event instanceof SplitsFinished finished) {
            for (String id : finished.splitIds()) {
                Long snapshot = inFlight.remove(id);
                if (snapshot != null && watermarks != null) {
                    watermarks.finished(snapshot, finished.watermark());
                }
            }
            sendWatermarkIfAdvanced();
        }
    }

    /**
     * Once every reader reported what it restored: a restored in-flight split that none holds was
     * read to its end between the enumerator's checkpoint and the readers', so it is no longer in
     * flight. Left in, it would hold the consumer's position back for good.
     */
    private void dropSplitsNoReaderHolds(int subtaskId, SplitsRestored restored) {
        if (restoredInFlight == null) {
            return;
        }
        restoredReports.add(subtaskId);
        held.addAll(restored.splitIds());
        if (restoredReports.size() < context.currentParallelism()) {
            return;
        }
        for (String id : restoredInFlight) {
            if (!held.contains(id)) {
                inFlight.remove(id);
            }
        }
        restoredInFlight = null;
        held.clear();
        sendWatermarkIfAdvanced();
    }

    @Override
    public TarnEnumeratorState snapshotState(long checkpointId) {
        positionAtCheckpoint.put(checkpointId, firstUnread());
        return new TarnEnumeratorState(
                nextSnapshotId,
                pending,
                inFlight,
                watermarks == null ? null : watermarks.watermark(),
                watermarks == null ? Map.of() : watermarks.reported());
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        Long position = positionAtCheckpoint.get(checkpointId);
        positionAtCheckpoint.headMap(checkpointId, true).clear();
        if (position == null || consumers == null) {
            return;
        }
        context.callAsync(
                () -> {
                    consumers.record(consumerId, position, System.currentTimeMillis());
                    return position;
                },
                (recorded, error) -> {
                    if (error != null) {
                        throw new IllegalStateException(
                                String.format(
                                        "Cannot record consumer '%s' at snapshot %d: %s",
                                        consumerId, position, error.getMessage()),
                                error);
                    }
                });
    }

    @Override
    public void close() throws IOException {}

    private record Discovery(List<StreamScan.Changes> changes, long nextSnapshotId) {}
}
