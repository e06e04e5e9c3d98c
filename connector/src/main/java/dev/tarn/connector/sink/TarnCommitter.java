package dev.tarn.connector.sink;

import dev.tarn.format.Table;
import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.ledger.PendingCommits;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.write.CommitMessage;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;

/**
 * Publishes the committables of one checkpoint as one snapshot. Flink calls it only after the
 * checkpoint completed (or at the end of a bounded input), and only on one subtask: the sink's
 * pre-commit topology routes every committable there. The snapshot records the lowest watermark of
 * the checkpoint's writers: every row at or before it that the job will ever write is in this
 * snapshot or an earlier one, except rows that were already late at the writers. The files it
 * publishes were recorded in the table's ledger while the checkpoint was taken ({@link
 * CommittableRouter}); a committer that closes deletes the record of each user whose last record it
 * published. What follows a commit (expiration) is the format's: the table's committer runs it.
 */
final class TarnCommitter implements Committer<TarnCommittable> {

    private final Table table;
    @Nullable private final OverwriteSpec overwrite;
    private final Map<String, TableCommit> commits = new HashMap<>();
    private final CommitterMetrics metrics;

    /** The ledger of prepared files (SPEC.md, "Pending commits"), written by the router. */
    private final PendingCommits ledger;

    /** Per commit user, the identifier of its last commit published or found published. */
    private final Map<String, Long> published = new HashMap<>();

    /** This job's commit user; null if unknown (tests), every user then taken as this job's. */
    @Nullable private final CommitUser own;

    /** A committer whose metrics go nowhere (tests). */
    TarnCommitter(Table table, @Nullable OverwriteSpec overwrite) {
        this(table, null, overwrite, new CommitterMetrics(new UnregisteredMetricsGroup()));
    }

    TarnCommitter(
            Table table,
            @Nullable CommitUser own,
            @Nullable OverwriteSpec overwrite,
            CommitterMetrics metrics) {
        this.table = table;
        this.own = own;
        this.overwrite = overwrite;
        this.ledger = table.pendingCommits();
        this.metrics = metrics;
    }

    @Override
    public void commit(Collection<CommitRequest<TarnCommittable>> requests) {
        // One checkpoint's committables normally share one user; restored ones of an earlier job
        // keep theirs, so that each is checked against its own job's commits.
        Map<CommitUser, List<CommitRequest<TarnCommittable>>> byUser = new LinkedHashMap<>();
        for (CommitRequest<TarnCommittable> request : requests) {
            byUser.computeIfAbsent(request.getCommittable().user(), u -> new ArrayList<>())
                    .add(request);
        }
        byUser.forEach(this::commit);
    }

    private void commit(CommitUser user, List<CommitRequest<TarnCommittable>> requests) {
        TableCommit commit =
                commits.computeIfAbsent(
                        user.name(),
                        name -> table.newCommit(name, user.createdMillis(), metrics::expired));
        List<CommitMessage> messages = new ArrayList<>();
        long identifier = Long.MIN_VALUE;
        for (CommitRequest<TarnCommittable> request : requests) {
            messages.addAll(request.getCommittable().messages());
            identifier = Math.max(identifier, request.getCommittable().checkpointId());
        }
        var request =
                dev.tarn.format.commit.CommitRequest.of(identifier, messages)
                        .withWatermark(watermark(requests, identifier));
        if (overwrite != null) {
            Set<Partition> written = new HashSet<>();
            messages.forEach(m -> written.add(m.partition()));
            request = request.overwriting(overwrite.scope(table.schema().partitionKeys(), written));
        }
        // Files are never deleted here: after a failure Flink restores and retries the same
        // committables, which need them. What a job abandons is left to orphan cleanup. A retry
        // publishes only what is missing: the compactions if the failure struck between the
        // commit's APPEND and COMPACT snapshots, nothing if it struck after the publish.
        TableCommit.Result result = commit.commit(request);
        if (own == null || own.equals(user)) {
            published.put(user.name(), identifier);
        } else {
            // An earlier job's: it writes no record any more, and its last one is abandoned.
            ledger.forget(user.name(), Long.MAX_VALUE);
        }
        metrics.committed(result);
        if (result.alreadyCommitted()) {
            requests.forEach(CommitRequest::signalAlreadyCommitted);
        }
    }

    /**
     * The watermark of checkpoint {@code identifier}: the lowest of its writers', or null if one of
     * them has none yet. Committables of earlier checkpoints in the same commit (retried after a
     * failure) are behind it, their rows included in this commit.
     */
    @Nullable
    static Long watermark(List<CommitRequest<TarnCommittable>> requests, long identifier) {
        Long lowest = null;
        for (CommitRequest<TarnCommittable> request : requests) {
            TarnCommittable c = request.getCommittable();
            if (c.checkpointId() != identifier) {
                continue;
            }
            if (c.watermark() == null) {
                return null;
            }
            lowest = lowest == null ? c.watermark() : Math.min(lowest, c.watermark());
        }
        return lowest;
    }

    @Override
    public void close() {
        commits.values().forEach(TableCommit::close);
        published.forEach(ledger::forget);
    }
}
