package dev.tarn.format.iceberg;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.iceberg.HistoryEntry;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.SnapshotParser;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TarnSnapshots;
import org.apache.iceberg.io.FileIO;

/**
 * One Iceberg table version as a committer holds it between commits, so that the next commit costs
 * the same whatever the number of snapshots kept: the head (Iceberg's {@link TableMetadata} with
 * the current snapshot alone: schemas, specs, properties, refs, metadata log), every earlier
 * snapshot kept as the JSON text Iceberg's parser writes for it (written once, when it stops being
 * current) with the snapshot log before the current entry, and the manifests the current snapshot's
 * list names. {@link IcebergMetadataJson} writes it as the one metadata file Iceberg reads.
 *
 * @param head the metadata with the current snapshot only; its snapshot log is that snapshot's
 * @param earlier the snapshots before the current one, oldest first
 * @param earlierLog the snapshot log before the current snapshot's entry, oldest first
 * @param manifests what the current snapshot's manifest list names
 * @param location the metadata file this version was written to, for the next version's metadata
 *     log, where the head does not name it itself (null for a version read from its file, whose
 *     head does, and for one not written yet): the head is not built again at its location after
 *     every write, only to be built again from there by the next commit
 */
record IcebergVersion(
        TableMetadata head,
        List<Earlier> earlier,
        List<HistoryEntry> earlierLog,
        List<ManifestFile> manifests,
        @Nullable String location) {

    /**
     * An earlier snapshot: its id and its JSON object as Iceberg's snapshot parser writes it, in
     * UTF-8 (what the metadata file holds, so writing it is a copy).
     */
    record Earlier(long id, byte[] json) {

        static Earlier of(org.apache.iceberg.Snapshot snapshot) {
            return new Earlier(
                    snapshot.snapshotId(),
                    SnapshotParser.toJson(snapshot, false).getBytes(StandardCharsets.UTF_8));
        }
    }

    /**
     * A snapshot log entry with its JSON object in ASCII, encoded once: the log grows with the
     * snapshots kept, and formatting its numbers again at every commit would make a commit's cost
     * grow with it.
     */
    record LogEntry(long timestampMillis, long snapshotId, byte[] json) implements HistoryEntry {

        static LogEntry of(HistoryEntry entry) {
            if (entry instanceof LogEntry encoded) {
                return encoded;
            }
            String json =
                    "{\"timestamp-ms\":"
                            + entry.timestampMillis()
                            + ",\"snapshot-id\":"
                            + entry.snapshotId()
                            + "}";
            return new LogEntry(
                    entry.timestampMillis(),
                    entry.snapshotId(),
                    json.getBytes(StandardCharsets.US_ASCII));
        }
    }

    IcebergVersion {
        if (head.currentSnapshot() == null || head.snapshots().size() != 1) {
            throw new IllegalArgumentException(
                    "The head of an Iceberg version holds its current snapshot alone, not "
                            + head.snapshots().size());
        }
        earlier = List.copyOf(earlier);
        HistoryEntry[] encoded = new HistoryEntry[earlierLog.size()];
        for (int i = 0; i < encoded.length; i++) {
            encoded[i] = LogEntry.of(earlierLog.get(i));
        }
        earlierLog = List.of(encoded);
        manifests = List.copyOf(manifests);
    }

    /** A version read from its metadata file: its earlier snapshots as text, its list read. */
    static IcebergVersion of(TableMetadata full, FileIO io) {
        org.apache.iceberg.Snapshot current = full.currentSnapshot();
        List<Long> others = new ArrayList<>();
        List<Earlier> earlier = new ArrayList<>();
        for (org.apache.iceberg.Snapshot s : full.snapshots()) {
            if (s.snapshotId() != current.snapshotId()) {
                others.add(s.snapshotId());
                earlier.add(Earlier.of(s));
            }
        }
        earlier.sort(Comparator.comparingLong(Earlier::id)); // As written; expired() needs it.
        List<HistoryEntry> log = new ArrayList<>(full.snapshotLog());
        if (!log.isEmpty() && log.get(log.size() - 1).snapshotId() == current.snapshotId()) {
            log.remove(log.size() - 1);
        }
        // The head built from the file keeps the file in its metadata log, as the next version's
        // metadata does.
        TableMetadata head =
                others.isEmpty()
                        ? full
                        : TableMetadata.buildFrom(full).removeSnapshots(others).build();
        return new IcebergVersion(head, earlier, log, TarnSnapshots.manifests(current, io), null);
    }

    /** The current snapshot. */
    org.apache.iceberg.Snapshot current() {
        return head.currentSnapshot();
    }

    /** The ids of the earlier snapshots before {@code firstKept}, oldest first. */
    List<Long> expired(long firstKept) {
        // Oldest first, and ids grow along a table's snapshots: only the expired ones are read,
        // not every snapshot kept, at each commit.
        List<Long> ids = new ArrayList<>();
        for (Earlier e : earlier) {
            if (e.id() >= firstKept) {
                break;
            }
            ids.add(e.id());
        }
        return ids;
    }

    /**
     * The earlier snapshots and log of the version after this one, whose head is {@code next}: this
     * version's current snapshot becomes an earlier one, the snapshots {@code removed} go, and with
     * them the log up to the last entry that names one (as Iceberg's own metadata builder trims the
     * log, so that it shows no gap).
     */
    IcebergVersion then(TableMetadata next, List<Long> removed, List<ManifestFile> listed) {
        List<Earlier> kept = new ArrayList<>(earlier.size() + 1);
        List<HistoryEntry> log = new ArrayList<>(earlierLog.size() + 1);
        if (removed.isEmpty()) {
            // Most commits expire nothing: copies of the lists, without a lookup per snapshot.
            kept.addAll(earlier);
            log.addAll(earlierLog);
        } else {
            Set<Long> gone = new HashSet<>(removed);
            for (Earlier e : earlier) {
                if (!gone.contains(e.id())) {
                    kept.add(e);
                }
            }
            for (HistoryEntry h : earlierLog) {
                if (gone.contains(h.snapshotId())) {
                    log.clear();
                } else {
                    log.add(h);
                }
            }
        }
        kept.add(Earlier.of(current()));
        log.addAll(head.snapshotLog());
        return new IcebergVersion(next, kept, log, listed, null);
    }

    /** This version, written to {@code written}. */
    IcebergVersion at(String written) {
        return new IcebergVersion(head, earlier, earlierLog, manifests, written);
    }

    /**
     * A builder of the metadata after this version's head: the head's, and the file this version
     * was written to for its metadata log.
     */
    TableMetadata.Builder next() {
        TableMetadata.Builder builder = TableMetadata.buildFrom(head);
        return location == null ? builder : builder.setPreviousFileLocation(location);
    }
}
