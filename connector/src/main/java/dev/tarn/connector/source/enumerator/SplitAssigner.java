package dev.tarn.connector.source.enumerator;

import dev.tarn.connector.source.split.SplitsRestored;
import dev.tarn.connector.source.split.TarnSplit;
import dev.tarn.format.bucket.BucketChannels;
import dev.tarn.format.read.Split;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * The splits of a followed table between planning and their end: pending (planned, not assigned),
 * then in flight (assigned, not reported finished). Every split of one bucket goes to the reader
 * that owns the bucket ({@link BucketChannels#channel}), in the order planned, so a key's changes
 * stay in snapshot order; an unbucketed append table's splits go round robin.
 *
 * <p>After a restore, it keeps the restored in-flight splits apart until every reader said which
 * splits it restored ({@link SplitsRestored}): one that no reader holds was read to its end between
 * the enumerator's checkpoint and the readers', so it is no longer in flight. Left in, it would
 * hold the consumer's position back for good. Called on the coordinator thread only.
 */
final class SplitAssigner {

    private final LinkedList<TarnSplit> pending = new LinkedList<>();
    private final Map<String, Long> inFlight = new HashMap<>();
    private long splitCounter;
    private int roundRobin;
    // After a restore, until every reader said which splits it restored: the restored in-flight
    // splits and the readers that reported, and the splits they hold. Null otherwise.
    @Nullable private Set<String> restoredInFlight;
    private final Set<Integer> restoredReports = new HashSet<>();
    private final Set<String> held = new HashSet<>();

    SplitAssigner() {}

    /** An assigner holding a checkpoint's splits. */
    SplitAssigner(TarnEnumeratorState restored) {
        pending.addAll(restored.pending());
        inFlight.putAll(restored.inFlight());
        splitCounter = restored.pending().size() + restored.inFlight().size();
        restoredInFlight = new HashSet<>(restored.inFlight().keySet());
    }

    /**
     * Adds a planned split, named by its snapshot and a counter.
     *
     * @param eventTime the commit time of the split's snapshot
     */
    void add(Split split, long eventTime) {
        pending.add(TarnSplit.of(split.snapshotId() + "-" + splitCounter++, split, eventTime));
    }

    /**
     * Takes the pending splits whose owner is among {@code registered}, in the order planned, and
     * counts them in flight.
     *
     * @return the splits by reader
     */
    Map<Integer, List<TarnSplit>> assign(Set<Integer> registered, int parallelism) {
        Map<Integer, List<TarnSplit>> assignment = new HashMap<>();
        var it = pending.iterator();
        while (it.hasNext()) {
            TarnSplit split = it.next();
            int owner = ownerOf(split.split(), parallelism);
            if (registered.contains(owner)) {
                assignment.computeIfAbsent(owner, o -> new ArrayList<>()).add(split);
                inFlight.put(split.id(), split.split().snapshotId());
                it.remove();
            }
        }
        return assignment;
    }

    private int ownerOf(Split split, int parallelism) {
        if (split.totalBuckets() < 0) {
            return Math.floorMod(roundRobin++, parallelism);
        }
        return BucketChannels.channel(split.partition(), split.bucket(), parallelism);
    }

    boolean hasPending() {
        return !pending.isEmpty();
    }

    /** Splits assigned after the last checkpoint, back: before any split planned after them. */
    void addBack(List<TarnSplit> splits) {
        for (int i = splits.size() - 1; i >= 0; i--) {
            inFlight.remove(splits.get(i).id());
            pending.addFirst(splits.get(i));
        }
    }

    /**
     * Splits a reader read to their end.
     *
     * @return the snapshot id of each that was in flight
     */
    List<Long> finished(Collection<String> splitIds) {
        List<Long> snapshots = new ArrayList<>();
        for (String id : splitIds) {
            Long snapshot = inFlight.remove(id);
            if (snapshot != null) {
                snapshots.add(snapshot);
            }
        }
        return snapshots;
    }

    /**
     * A reader's report of the splits it restored.
     *
     * @return whether this was the last report awaited, so in-flight splits changed
     */
    boolean restored(int subtaskId, Collection<String> splitIds, int parallelism) {
        if (restoredInFlight == null) {
            return false;
        }
        restoredReports.add(subtaskId);
        held.addAll(splitIds);
        if (restoredReports.size() < parallelism) {
            return false;
        }
        for (String id : restoredInFlight) {
            if (!held.contains(id)) {
                inFlight.remove(id);
            }
        }
        restoredInFlight = null;
        held.clear();
        return true;
    }

    /** The lowest snapshot id of a split not read to its end, or {@code nextSnapshotId}. */
    long firstUnread(long nextSnapshotId) {
        long first = nextSnapshotId;
        for (TarnSplit split : pending) {
            first = Math.min(first, split.split().snapshotId());
        }
        for (long snapshot : inFlight.values()) {
            first = Math.min(first, snapshot);
        }
        return first;
    }

    List<TarnSplit> pending() {
        return pending;
    }

    Map<String, Long> inFlight() {
        return inFlight;
    }
}
