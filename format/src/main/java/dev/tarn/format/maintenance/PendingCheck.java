package dev.tarn.format.maintenance;

import dev.tarn.format.ledger.PendingCommit;
import dev.tarn.format.ledger.PendingCommits;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.flink.core.fs.Path;

/**
 * Reads the ledger of prepared files (SPEC.md, "Pending commits") for the integrity check, orphan
 * cleanup and the health report: each commit user's pending checkpoints, which prepared files of
 * them are missing, the newest checkpoint of each commit user whose state carries none of them (the
 * restore point), and which users no job has written a record for in {@code
 * pending-commit.retention}. A record whose checkpoint a retained snapshot of its user has
 * published is no pending commit: each commit leaves its record until the user's next commit
 * replaces it.
 */
public final class PendingCheck {

    /** A prepared file of a pending commit that is not there. */
    public record Missing(String user, long checkpoint, String file) {

        /** One line for an operator. */
        public String problem() {
            return String.format(
                    "prepared file of checkpoint %d of commit user %s is missing: no snapshot has"
                            + " it yet, so the job cannot commit it",
                    checkpoint, user);
        }
    }

    /**
     * The restore point of a commit user with missing prepared files.
     *
     * @param broken the checkpoints whose committables lost a file, ascending
     * @param checkpoint the newest checkpoint whose state carries none of them: one below the
     *     lowest broken one (0: none, restart the job without state)
     */
    public record RestorePoint(String user, List<Long> broken, long checkpoint) {

        /** One line for an operator. */
        public String advice() {
            String from =
                    checkpoint > 0
                            ? "restore job "
                                    + user
                                    + " from checkpoint "
                                    + checkpoint
                                    + " or earlier"
                            : "restart job " + user + " without its state";
            return String.format(
                    "Pending checkpoints %s of commit user %s have missing prepared files, and every"
                            + " later checkpoint of the job carries them: %s and replay from its"
                            + " source offsets",
                    joined(broken), user, from);
        }
    }

    /** A commit user whose record is older than {@code pending-commit.retention}. */
    public record Untouched(String user, List<Long> checkpoints, Instant lastWritten) {

        /** One line for an operator. */
        public String warning(Duration retention) {
            return String.format(
                    "Commit user %s has pending checkpoints %s last recorded at %s, longer ago than"
                            + " pending-commit.retention (%s): its job is probably gone; restore"
                            + " it, or delete its record pending/%s to let orphan cleanup"
                            + " remove their files",
                    user, joined(checkpoints), lastWritten, retention, user);
        }
    }

    /**
     * The pending commits of one commit user: the checkpoints its record carries, if no retained
     * snapshot of the user published it.
     *
     * @param checkpoints the checkpoints whose committables are pending, ascending
     * @param recordedAt when the record was written (its committer's last attempt), by its clock
     */
    public record UserPending(String user, List<Long> checkpoints, Instant recordedAt) {}

    /**
     * What the ledger says.
     *
     * @param byUser the pending commits of each commit user that has any, by user name
     */
    public record Result(
            List<Missing> missing,
            List<RestorePoint> restorePoints,
            List<Untouched> untouched,
            List<UserPending> byUser) {

        /** The pending commits of every user. */
        public int pendingCount() {
            return byUser.stream().mapToInt(u -> u.checkpoints().size()).sum();
        }
    }

    private PendingCheck() {}

    /**
     * The ledger's records that no retained snapshot published, checked against the files there.
     *
     * @param snapshots the table's root snapshots
     */
    static Result run(TableContext table, List<Snapshot> snapshots, Instant now) {
        List<PendingCommit> pending = unpublished(all(table), snapshots);
        List<Missing> missing = new ArrayList<>();
        Map<String, TreeSet<Long>> broken = new LinkedHashMap<>();
        for (PendingCommit record : pending) {
            record.committables()
                    .forEach(
                            (checkpoint, files) -> {
                                for (String file : files) {
                                    if (!exists(table, file)) {
                                        missing.add(new Missing(record.user(), checkpoint, file));
                                        broken.computeIfAbsent(record.user(), u -> new TreeSet<>())
                                                .add(checkpoint);
                                    }
                                }
                            });
        }
        List<RestorePoint> points = new ArrayList<>();
        broken.forEach(
                (user, ids) ->
                        points.add(new RestorePoint(user, List.copyOf(ids), ids.first() - 1)));
        return new Result(
                List.copyOf(missing),
                List.copyOf(points),
                untouched(table, pending, now),
                byUser(pending));
    }

    /** The pending checkpoints of each of {@code records} (one per user, sorted by user). */
    private static List<UserPending> byUser(List<PendingCommit> records) {
        return records.stream()
                .map(
                        r ->
                                new UserPending(
                                        r.user(),
                                        List.copyOf(r.committables().keySet()),
                                        Instant.ofEpochMilli(r.writtenMillis())))
                .toList();
    }

    /** Every record of the table. */
    static List<PendingCommit> all(TableContext table) {
        return new PendingCommits(table).all();
    }

    /** The users whose record was written more than the retention before {@code now}. */
    static List<Untouched> untouched(TableContext table, List<PendingCommit> records, Instant now) {
        long since = now.minus(table.config().lifecycle().pendingRetention()).toEpochMilli();
        return records.stream()
                .filter(r -> r.writtenMillis() < since)
                .map(
                        r ->
                                new Untouched(
                                        r.user(),
                                        List.copyOf(r.committables().keySet()),
                                        Instant.ofEpochMilli(r.writtenMillis())))
                .toList();
    }

    /**
     * The records whose checkpoint no snapshot of their user among {@code snapshots} reached: the
     * pending commits. A record of a published checkpoint is left for the user's next commit to
     * replace (SPEC.md, "Pending commits") and lists nothing that is not in a snapshot.
     */
    static List<PendingCommit> unpublished(List<PendingCommit> records, List<Snapshot> snapshots) {
        Map<String, Long> published = new HashMap<>();
        for (Snapshot s : snapshots) {
            published.merge(s.commit().user(), s.commit().identifier(), Math::max);
        }
        return records.stream()
                .filter(r -> published.getOrDefault(r.user(), Long.MIN_VALUE) < r.checkpoint())
                .toList();
    }

    private static boolean exists(TableContext table, String file) {
        Path path = new Path(table.location(), file);
        try {
            return table.io().exists(path);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot check prepared file " + path + " of table " + table.name(), e);
        }
    }

    private static String joined(List<Long> ids) {
        return String.join(", ", ids.stream().map(String::valueOf).toList());
    }
}
