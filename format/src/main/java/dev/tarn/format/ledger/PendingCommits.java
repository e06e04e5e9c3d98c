package dev.tarn.format.ledger;

import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.VectorChange;
import dev.tarn.format.table.TableContext;
import dev.tarn.format.write.CommitMessage;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ledger of a table's prepared files (SPEC.md, "Pending commits"): {@code
 * pending/<commit-user>/ckp-<checkpoint>}, one record per commit user and checkpoint, written while
 * the commit of the checkpoint is attempted (on a thread of its own, so that the commit does not
 * wait for it) and complete before the commit call returns, and deleted, off the committing thread,
 * once the commit is seen published. A record replaces one of the same name atomically (one PUT on
 * an object store), so readers see a whole record or none. One instance serves one committer: it
 * remembers for which users it has cleared the records of an earlier run.
 *
 * <p>Failure: a commit that fails returns only after its record is written, so the files of a
 * commit still pending are listed when its failure reaches the job; a crash during the commit
 * leaves the record or not, and the files are published or not, and a retry (restored from the
 * checkpoint) writes the record again before it returns; a crash after the publish leaves a record
 * of a published checkpoint, deleted by the next commit of the user and ignored by the integrity
 * check.
 */
public final class PendingCommits implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PendingCommits.class);

    private static final String PREFIX = "ckp-";

    /** How long {@link #close} lets queued deletions finish. */
    private static final long CLOSE_WAIT_SECONDS = 10;

    private final TableContext table;

    /** The users whose records of an earlier run this instance has cleared. */
    private final Set<String> cleared = new HashSet<>();

    /**
     * Writes records while their commit is attempted, and deletes them after it, in the order
     * queued (a user's first commit clears its records before the next record is written), off the
     * committing thread. Made on first use.
     */
    @Nullable private ExecutorService background;

    public PendingCommits(TableContext table) {
        this.table = table;
    }

    /**
     * Records what {@code request} publishes, commits it with {@code commit} and deletes the
     * record: the record of the request's identifier once it is published or found published; at
     * the first commit of {@code user} through this instance, every record of the user, since the
     * committer restored its pending committables (all at or below this identifier, now published)
     * and a record above it belongs to a checkpoint the job was not restored from.
     *
     * @param carried the messages of {@code request} by the checkpoint that prepared them
     * @throws UncheckedIOException naming the record if it cannot be written: nothing was committed
     */
    public TableCommit.Result commit(
            TableCommit commit,
            String user,
            CommitRequest request,
            SortedMap<Long, List<CommitMessage>> carried,
            long nowMillis) {
        boolean first = cleared.add(user);
        Future<PendingCommit> recorded =
                background().submit(() -> record(user, request.identifier(), carried, nowMillis));
        TableCommit.Result result;
        try {
            result = commit.commit(request);
        } catch (RuntimeException e) {
            // A failed commit returns only once its record is there (or failed too).
            try {
                await(recorded);
            } catch (RuntimeException recordFailure) {
                e.addSuppressed(recordFailure);
            }
            if (first) {
                cleared.remove(user);
            }
            throw e;
        }
        PendingCommit record;
        try {
            record = await(recorded);
        } catch (UncheckedIOException e) {
            // Published: the files no longer need the record.
            LOG.warn("Published commit {} of {} without its record", request.identifier(), user, e);
            record = null;
        }
        PendingCommit written = record;
        background()
                .execute(
                        () -> {
                            if (first) {
                                removeAll(user);
                            } else if (written != null) {
                                remove(written);
                            }
                        });
        return result;
    }

    /** Waits until the background work queued so far (record writes, deletions) is done. */
    void drain() {
        if (background != null) {
            await(background.submit(() -> null));
        }
    }

    /** Finishes the queued deletions (for a while) and stops the background thread. */
    @Override
    public void close() {
        if (background == null) {
            return;
        }
        background.shutdown();
        try {
            if (!background.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
                LOG.warn("Pending-commit records of {} still being deleted at close", table.name());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private ExecutorService background() {
        if (background == null) {
            background =
                    Executors.newSingleThreadExecutor(
                            runnable -> {
                                Thread thread = new Thread(runnable, "tarn-ledger-" + table.name());
                                thread.setDaemon(true);
                                return thread;
                            });
        }
        return background;
    }

    private static <T> T await(Future<T> future) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted waiting for a pending-commit record", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /**
     * Writes the record of checkpoint {@code checkpoint} of {@code user}: the files of {@code
     * carried}'s messages that the commit would add (data, changelog and index files).
     */
    public PendingCommit record(
            String user,
            long checkpoint,
            SortedMap<Long, List<CommitMessage>> carried,
            long nowMillis) {
        SortedMap<Long, List<String>> files = new TreeMap<>();
        carried.forEach((id, messages) -> files.put(id, preparedFiles(messages)));
        PendingCommit record = new PendingCommit(user, checkpoint, nowMillis, files);
        Path path = path(user, checkpoint);
        try {
            table.io().overwrite(path, PendingCommitJson.toBytes(record));
        } catch (IOException e) {
            throw new UncheckedIOException(
                    String.format(
                            "Cannot record pending commit %d of commit user %s of table %s in %s:"
                                    + " %s",
                            checkpoint, user, table.name(), path, e.getMessage()),
                    e);
        }
        return record;
    }

    /** Every record of the table, by user and checkpoint; corrupt ones as {@link #read} says. */
    public List<PendingCommit> all() {
        List<PendingCommit> all = new ArrayList<>();
        for (FileStatus userDir : list(table.paths().pendingDir())) {
            if (!userDir.isDir()) {
                continue;
            }
            for (FileStatus file : list(userDir.getPath())) {
                if (file.getPath().getName().startsWith(PREFIX)) {
                    read(file.getPath()).ifPresent(all::add);
                }
            }
        }
        all.sort(
                (a, b) ->
                        a.user().equals(b.user())
                                ? Long.compare(a.checkpoint(), b.checkpoint())
                                : a.user().compareTo(b.user()));
        return all;
    }

    /**
     * The record at {@code path}, or empty if it is gone (deleted while the ledger was listed).
     *
     * @throws IllegalArgumentException naming the file and the reason if it is corrupt
     */
    private Optional<PendingCommit> read(Path path) {
        byte[] bytes;
        try {
            bytes = table.io().readAllBytes(path);
        } catch (FileNotFoundException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot read pending commit " + path + " of table " + table.name(), e);
        }
        try {
            return Optional.of(PendingCommitJson.parse(bytes));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    String.format(
                            "Corrupt pending commit file %s of table %s: %s",
                            path, table.name(), e.getMessage()),
                    e);
        }
    }

    /**
     * Deletes the record of {@code record}'s checkpoint. Never fails: a record left behind lists
     * files its published snapshot names, and the user's next commit deletes it.
     */
    void remove(PendingCommit record) {
        delete(path(record.user(), record.checkpoint()));
    }

    /** Deletes every record of {@code user}; never fails, as {@link #remove}. */
    void removeAll(String user) {
        Path dir = new Path(table.paths().pendingDir(), user);
        FileStatus[] files;
        try {
            files = table.io().list(dir);
        } catch (IOException e) {
            LOG.warn("Cannot list the pending commits {} of table {}", dir, table.name(), e);
            return;
        }
        for (FileStatus file : files) {
            if (file.getPath().getName().startsWith(PREFIX)) {
                delete(file.getPath());
            }
        }
    }

    private void delete(Path path) {
        try {
            table.io().deleteIfExists(path);
        } catch (IOException | RuntimeException e) {
            LOG.warn(
                    "Cannot delete the pending commit {} of table {}; the next commit of its user"
                            + " will",
                    path,
                    table.name(),
                    e);
        }
    }

    private Path path(String user, long checkpoint) {
        return new Path(new Path(table.paths().pendingDir(), user), PREFIX + checkpoint);
    }

    /** The table-relative paths of the files {@code messages} add. */
    private List<String> preparedFiles(List<CommitMessage> messages) {
        List<String> files = new ArrayList<>();
        Set<String> indexFiles = new HashSet<>();
        for (CommitMessage m : messages) {
            Path dir = table.bucketPath(m.partition(), m.bucket());
            for (DataFile f : m.newFiles()) {
                files.add(table.paths().relative(new Path(dir, f.fileName())));
            }
            for (DataFile f : m.changelogFiles()) {
                files.add(table.paths().relative(new Path(dir, f.fileName())));
            }
            for (VectorChange change : m.vectors()) {
                if (change.after() != null && indexFiles.add(change.after().indexFile())) {
                    files.add(
                            table.paths()
                                    .relative(table.indexFiles().path(change.after().indexFile())));
                }
            }
        }
        return files;
    }

    private FileStatus[] list(Path dir) {
        try {
            return table.io().list(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot list the pending commits "
                            + dir
                            + " of table "
                            + table.name()
                            + ": "
                            + e.getMessage(),
                    e);
        }
    }
}
