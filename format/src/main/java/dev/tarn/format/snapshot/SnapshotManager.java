package dev.tarn.format.snapshot;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.io.TablePaths;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;

/**
 * The snapshot files of one table, {@code <table>/snapshot/snapshot-<id>}, and the LATEST and
 * EARLIEST hints beside them. The truth is which snapshot files exist: a hint is only a place to
 * start looking, and a missing, stale or corrupt hint costs a few probes, never a wrong answer.
 * Every read and write of the snapshot directory and its hints goes through this one class (hence
 * its size), so the rules of the hints and of what this process learnt of the first and last
 * snapshot live in one place.
 */
public final class SnapshotManager {

    private static final String PREFIX = "snapshot-";
    static final String LATEST = "LATEST";
    static final String EARLIEST = "EARLIEST";

    /** Marks an unfinished expiration: the id below which every snapshot is being removed. */
    static final String EXPIRING = "EXPIRING";

    /** Snapshot files never change once written, so a parsed snapshot can be kept. */
    private static final int CACHED_SNAPSHOTS = 512;

    private final FileIO io;
    private final Path dir;
    private final String table;
    private final SnapshotCommit publisher;
    private final Cache<Long, Snapshot> cache =
            Caffeine.newBuilder().maximumSize(CACHED_SNAPSHOTS).build();

    /** The id this manager published last, 0 after it lost a race: {@link #readLatest}'s guess. */
    private volatile long knownLatest;

    /** The first snapshot an expiration through this manager kept, 0 if none ran. */
    private volatile long knownEarliest;

    /**
     * @param publisher the atomic publish step of {@link #tryCommit}
     */
    public SnapshotManager(FileIO io, TablePaths paths, String table, SnapshotCommit publisher) {
        this.io = io;
        this.dir = paths.snapshotDir();
        this.table = table;
        this.publisher = publisher;
    }

    public Path directory() {
        return dir;
    }

    public Path path(long id) {
        return new Path(dir, PREFIX + id);
    }

    /** The newest snapshot id, if the table has any snapshot. */
    public OptionalLong latestId() {
        try {
            OptionalLong hint = readHint(LATEST);
            if (hint.isPresent() && present(hint.getAsLong())) {
                long id = hint.getAsLong();
                while (present(id + 1)) {
                    id++;
                }
                return OptionalLong.of(id);
            }
            return listIds(true);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot find the latest snapshot of table " + table, e);
        }
    }

    /**
     * The snapshot a commit builds on, as its file is now: never from the cache, as a rollback may
     * have replaced it (SPEC.md, "Rollback"). If this manager published the latest snapshot it
     * knows of and lost no race since, that one, re-read with one request and taken as the latest:
     * the exclusive create of the next id tells whether another committer got there first, and then
     * {@link #tryCommit} makes the next call look further. Otherwise the LATEST hint (else a
     * listing), read upward until an id is missing.
     *
     * @return empty if the table has no snapshot
     */
    public Optional<Snapshot> readLatest() {
        try {
            long published = knownLatest;
            Snapshot found = published > 0 ? readFresh(published) : null;
            if (found != null) {
                return Optional.of(found);
            }
            OptionalLong hint = readHint(LATEST);
            found = hint.isPresent() ? readFresh(hint.getAsLong()) : null;
            if (found == null) {
                OptionalLong listed = listIds(true);
                if (listed.isEmpty()) {
                    return Optional.empty();
                }
                found = readFresh(listed.getAsLong());
                if (found == null) {
                    throw new IllegalStateException(
                            "Snapshot " + listed.getAsLong() + " of table " + table + " vanished");
                }
            }
            for (Snapshot next = readFresh(found.id() + 1);
                    next != null;
                    next = readFresh(found.id() + 1)) {
                found = next;
            }
            return Optional.of(found);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the latest snapshot of table " + table, e);
        }
    }

    /** Snapshot {@code id} read from its file now and cached; null if there is no such file. */
    private Snapshot readFresh(long id) throws IOException {
        Path path = path(id);
        byte[] bytes;
        try {
            bytes = io.readAllBytes(path);
        } catch (FileNotFoundException e) {
            return null;
        }
        Snapshot snapshot = SnapshotJson.fromJson(bytes, path.toString());
        if (snapshot.id() != id) {
            throw new IllegalArgumentException(
                    "Corrupt snapshot file " + path + ": it holds snapshot id " + snapshot.id());
        }
        cache.put(id, snapshot);
        return snapshot;
    }

    /** The oldest snapshot id still present, if any. */
    public OptionalLong earliestId() {
        try {
            OptionalLong hint = readHint(EARLIEST);
            if (hint.isPresent() && present(hint.getAsLong())) {
                long id = hint.getAsLong();
                while (id > 1 && present(id - 1)) {
                    id--;
                }
                return OptionalLong.of(id);
            }
            return listIds(false);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot find the earliest snapshot of table " + table, e);
        }
    }

    /**
     * Whether snapshot file {@code id} exists now (never from the cache: expiration and rollback
     * delete snapshot files), found by reading it and keeping what it holds: on an object store a
     * read of a missing object is one HEAD, where an existence check through a file system may also
     * LIST its "directory", and the caller mostly reads the snapshot next anyway.
     */
    private boolean present(long id) throws IOException {
        Path path = path(id);
        byte[] bytes;
        try {
            bytes = io.readAllBytes(path);
        } catch (FileNotFoundException e) {
            return false;
        }
        try {
            Snapshot snapshot = SnapshotJson.fromJson(bytes, path.toString());
            if (snapshot.id() == id) {
                cache.put(id, snapshot);
            }
        } catch (RuntimeException corrupt) {
            // It exists; reading it through snapshot(id) reports the corruption.
        }
        return true;
    }

    /** Only where the hints are missing or stale: a new table, or hints lost. */
    private OptionalLong listIds(boolean max) throws IOException {
        OptionalLong found = OptionalLong.empty();
        for (FileStatus status : io.list(dir)) {
            String name = status.getPath().getName();
            if (!name.startsWith(PREFIX)) {
                continue;
            }
            try {
                long id = Long.parseLong(name.substring(PREFIX.length()));
                if (found.isEmpty() || (max ? id > found.getAsLong() : id < found.getAsLong())) {
                    found = OptionalLong.of(id);
                }
            } catch (NumberFormatException ignored) {
                // A temporary or foreign file; not a snapshot.
            }
        }
        return found;
    }

    private OptionalLong readHint(String name) {
        try {
            String text =
                    new String(io.readAllBytes(new Path(dir, name)), StandardCharsets.UTF_8).trim();
            return OptionalLong.of(Long.parseLong(text));
        } catch (IOException | NumberFormatException e) {
            // Missing or torn hint: fall back to listing.
            return OptionalLong.empty();
        }
    }

    public Snapshot latest() {
        OptionalLong id = latestId();
        if (id.isEmpty()) {
            throw new IllegalStateException("Table " + table + " has no snapshot yet");
        }
        return snapshot(id.getAsLong());
    }

    public boolean exists(long id) {
        try {
            return present(id);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot check snapshot " + id + " of " + table, e);
        }
    }

    /**
     * @throws IllegalArgumentException if the snapshot does not exist or its file is corrupt
     */
    public Snapshot snapshot(long id) {
        Snapshot cached = cache.getIfPresent(id);
        if (cached != null) {
            return cached;
        }
        Path path = path(id);
        byte[] bytes;
        try {
            bytes = io.readAllBytes(path);
        } catch (FileNotFoundException e) {
            throw new IllegalArgumentException(
                    String.format(
                            "Snapshot %d of table %s does not exist (earliest %s, latest %s)",
                            id, table, describe(earliestId()), describe(latestId())),
                    e);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot read snapshot " + id + " of table " + table + " from " + path, e);
        }
        Snapshot snapshot = SnapshotJson.fromJson(bytes, path.toString());
        if (snapshot.id() != id) {
            throw new IllegalArgumentException(
                    "Corrupt snapshot file " + path + ": it holds snapshot id " + snapshot.id());
        }
        cache.put(id, snapshot);
        return snapshot;
    }

    private static String describe(OptionalLong id) {
        return id.isPresent() ? String.valueOf(id.getAsLong()) : "none";
    }

    /**
     * The newest snapshot committed at or before {@code timeMillis}.
     *
     * @throws IllegalArgumentException if every snapshot is newer, or there is none
     */
    public Snapshot atOrBefore(long timeMillis) {
        OptionalLong earliest = earliestId();
        OptionalLong latest = latestId();
        // The time as an instant, and as the epoch milliseconds a 'scan.timestamp-millis' gave.
        String time = java.time.Instant.ofEpochMilli(timeMillis) + " (" + timeMillis + ")";
        if (earliest.isEmpty() || latest.isEmpty()) {
            throw new IllegalArgumentException(
                    String.format(
                            "Table %s has no snapshot at or before %s: it has none yet",
                            table, time));
        }
        long lo = earliest.getAsLong();
        long hi = latest.getAsLong();
        if (snapshot(lo).commit().timeMillis() > timeMillis) {
            throw new IllegalArgumentException(
                    String.format(
                            "Table %s has no snapshot at or before %s: the earliest, %d, was"
                                    + " committed at %s",
                            table,
                            time,
                            lo,
                            java.time.Instant.ofEpochMilli(snapshot(lo).commit().timeMillis())));
        }
        // Commit times grow with ids: binary search for the last one <= timeMillis.
        while (lo < hi) {
            long mid = lo + (hi - lo + 1) / 2;
            if (snapshot(mid).commit().timeMillis() <= timeMillis) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return snapshot(lo);
    }

    /**
     * Publishes {@code snapshot} if no snapshot with its id exists yet.
     *
     * @return false if another committer created that id first (nothing was changed)
     */
    public boolean tryCommit(Snapshot snapshot) throws IOException {
        if (!publisher.publish(path(snapshot.id()), SnapshotJson.toJson(snapshot))) {
            knownLatest = 0;
            return false;
        }
        cache.put(snapshot.id(), snapshot);
        knownLatest = snapshot.id();
        writeHint(LATEST, snapshot.id());
        if (snapshot.id() == 1) {
            writeHint(EARLIEST, 1);
        }
        return true;
    }

    /**
     * Re-reads snapshot {@code id} from its file, bypassing the cache: a rollback may have replaced
     * it since this process read it (SPEC.md, "Rollback").
     *
     * @return empty if there is no such snapshot file
     */
    public Optional<Snapshot> reread(long id) {
        cache.invalidate(id);
        try {
            return Optional.of(snapshot(id));
        } catch (IllegalArgumentException e) {
            if (exists(id)) {
                throw e;
            }
            return Optional.empty();
        }
    }

    /**
     * Deletes snapshot file {@code id} (expiration, rollback); its files are the caller's.
     *
     * @return false if it was gone already
     */
    public boolean delete(long id) throws IOException {
        cache.invalidate(id);
        if (knownLatest == id) {
            knownLatest = 0;
        }
        return io.delete(path(id), false);
    }

    /**
     * Creates {@code snapshot}'s file again from a copy (a tag's) without touching the hints, so
     * readers keep seeing the snapshots they see until the caller fixes the hints.
     *
     * @return false if a snapshot with its id exists
     */
    public boolean restore(Snapshot snapshot) throws IOException {
        cache.invalidate(snapshot.id());
        return publisher.publish(path(snapshot.id()), SnapshotJson.toJson(snapshot));
    }

    /**
     * Points the EARLIEST hint at {@code id} (best effort: it is a hint), after an expiration
     * removed every snapshot before it; {@link #knownEarliest} remembers it.
     */
    public void writeEarliestHint(long id) {
        knownEarliest = Math.max(knownEarliest, id);
        writeHint(EARLIEST, id);
    }

    /**
     * Without I/O, a lower bound of the earliest snapshot: every snapshot before it was removed by
     * an expiration through this manager (0 if none ran). Another process may have removed more.
     */
    public long knownEarliest() {
        return knownEarliest;
    }

    /** Points the LATEST hint at {@code id} (best effort: it is a hint). */
    public void writeLatestHint(long id) {
        writeHint(LATEST, id);
    }

    /**
     * The id below which an unfinished expiration removes every snapshot (SPEC.md, "Snapshot
     * expiration"), if one was interrupted.
     */
    public OptionalLong expiringBefore() {
        return readHint(EXPIRING);
    }

    /** Records that every snapshot below {@code end} is being expired; atomic and durable. */
    public void markExpiring(long end) throws IOException {
        io.overwrite(new Path(dir, EXPIRING), String.valueOf(end).getBytes(StandardCharsets.UTF_8));
    }

    /** Clears the mark of {@link #markExpiring} once every snapshot below it is gone. */
    public void clearExpiring() throws IOException {
        io.delete(new Path(dir, EXPIRING), false);
    }

    /** Best effort: a failed hint write only costs a later reader some probes. */
    private void writeHint(String name, long id) {
        try {
            io.overwrite(new Path(dir, name), String.valueOf(id).getBytes(StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException ignored) {
            // The hint is advisory; the snapshot files are the truth.
        }
    }
}
