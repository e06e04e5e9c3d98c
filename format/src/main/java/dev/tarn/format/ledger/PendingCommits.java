package dev.tarn.format.ledger;

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
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ledger of a table's prepared files (SPEC.md, "Pending commits"): {@code
 * pending/<commit-user>}, one record per commit user, replaced at each checkpoint that prepared
 * files by the record of what the committer's state at that checkpoint carries (one atomic PUT on
 * an object store, a rename over it on a file system, so readers see a whole record or none). The
 * streaming sink writes it while the checkpoint is taken, before the checkpoint can complete, so
 * every file of a completed checkpoint is recorded before its commit starts, and the commit itself
 * never waits for the ledger. A record is never deleted after its publish: readers take it as done
 * once a snapshot of its user has an identifier at or above its checkpoint, and the user's next
 * record replaces it. Only {@link #forget}, when a committer closes after its last publish, deletes
 * it, so that a job stopped cleanly leaves none.
 *
 * <p>Failure: a checkpoint whose record cannot be written fails, so nothing is committed for it and
 * the next checkpoint carries its files; a crash after the record and before the publish leaves a
 * pending record, whose files orphan cleanup keeps until the restored job publishes them; a crash
 * after the publish leaves a record of a published checkpoint, which readers look past and the next
 * record replaces.
 */
public final class PendingCommits {

    private static final Logger LOG = LoggerFactory.getLogger(PendingCommits.class);

    private final TableContext table;

    public PendingCommits(TableContext table) {
        this.table = table;
    }

    /**
     * Deletes the record of {@code user} if it is done by {@code publishedIdentifier}, the
     * identifier of the user's last commit that was published (or found published): a record of a
     * later checkpoint, still pending, stays. Called by a committer as it closes. Never fails: a
     * record left behind is reported by readers as done or pending, as it is.
     */
    public void forget(String user, long publishedIdentifier) {
        Path path = path(user);
        try {
            Optional<PendingCommit> record = read(path);
            if (record.isPresent() && record.get().checkpoint() <= publishedIdentifier) {
                table.io().deleteIfExists(path);
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn(
                    "Cannot delete the published pending commit {} of table {}; readers look"
                            + " past it",
                    path,
                    table.name(),
                    e);
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
