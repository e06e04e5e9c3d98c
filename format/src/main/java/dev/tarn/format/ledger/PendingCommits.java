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
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
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
 * pending/<commit-user>}, one record per commit user, replaced at each commit by the record of its
 * checkpoint (one atomic PUT on an object store, a rename over it on a file system, so readers see
 * a whole record or none), written beside the commit on a thread of its own so that the commit does
 * not wait for it, and complete before the commit call returns. A record is never deleted after its
 * publish: readers take it as done once a snapshot of its user has an identifier at or above its
 * checkpoint, and the user's next commit replaces it. Only {@link #close}, after the last commit
 * through this instance was published, deletes it, so that a job stopped cleanly leaves none. One
 * instance serves one committer.
 *
 * <p>Failure: a commit that fails returns only after its record is written, so the files of a
 * commit still pending are listed when its failure reaches the job; a crash during the commit
 * leaves the new record or the one before it (published, or carried by the new one), and a retry
 * (restored from the checkpoint) writes the record again before it returns; a crash after the
 * publish leaves a record of a published checkpoint, which readers look past and the next commit of
 * the user replaces.
 */
public final class PendingCommits implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PendingCommits.class);

    /** How long {@link #close} lets a record write in flight finish. */
    private static final long CLOSE_WAIT_SECONDS = 10;

    private final TableContext table;

    /**
     * The users whose last commit through this instance was published (or found published): their
     * record lists only published files, so {@link #close} may delete it.
     */
    private final Set<String> published = ConcurrentHashMap.newKeySet();

    /** Writes records while their commit is attempted, off the committing thread. */
    @Nullable private ExecutorService background;

    public PendingCommits(TableContext table) {
        this.table = table;
    }

    /**
     * Records what {@code request} publishes (replacing the user's record) and commits it with
     * {@code commit}; the commit does not wait for the record, but this call returns only once it
     * is written.
     *
     * @param carried the messages of {@code request} by the checkpoint that prepared them
     * @throws UncheckedIOException naming the record if it cannot be written and the commit failed
     */
    public TableCommit.Result commit(
            TableCommit commit,
            String user,
            CommitRequest request,
            SortedMap<Long, List<CommitMessage>> carried,
            long nowMillis) {
        published.remove(user);
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
            throw e;
        }
        try {
            await(recorded);
        } catch (UncheckedIOException e) {
            // Published: the files no longer need the record.
            LOG.warn("Published commit {} of {} without its record", request.identifier(), user, e);
        }
        published.add(user);
        return result;
    }

    /**
     * Lets a record write in flight finish (for a while), stops the background thread, then deletes
     * the record of every user whose last commit through this instance was published: a job that
     * stops cleanly leaves no record. Never fails: a record left behind is a published one, which
     * readers look past.
     */
    @Override
    public void close() {
        if (background != null) {
            background.shutdown();
            try {
                if (!background.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
                    LOG.warn("A pending-commit record of {} still being written", table.name());
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        for (String user : published) {
            delete(path(user));
        }
        published.clear();
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
        Path path = path(user);
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

    /**
     * Every record of the table, one per user, by user; corrupt ones as {@link #read} says.
     * Temporary files of a record being replaced ({@code .}-names) are no records.
     */
    public List<PendingCommit> all() {
        List<PendingCommit> all = new ArrayList<>();
        for (FileStatus file : list(table.paths().pendingDir())) {
            if (!file.isDir() && !file.getPath().getName().startsWith(".")) {
                read(file.getPath()).ifPresent(all::add);
            }
        }
        all.sort(Comparator.comparing(PendingCommit::user));
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

    private void delete(Path path) {
        try {
            table.io().deleteIfExists(path);
        } catch (IOException | RuntimeException e) {
            LOG.warn(
                    "Cannot delete the published pending commit {} of table {}; readers look"
                            + " past it",
                    path,
                    table.name(),
                    e);
        }
    }

    private Path path(String user) {
        return new Path(table.paths().pendingDir(), user);
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
