package dev.tarn.format.read;

import dev.tarn.format.schema.StreamConfig;
import dev.tarn.format.schema.StreamConfig.ScanMode;
import dev.tarn.format.schema.TableConfig;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.SnapshotManager;
import dev.tarn.format.snapshot.Tags;
import dev.tarn.format.table.TableContext;
import java.time.Instant;
import java.util.OptionalLong;

/**
 * The rules of a streaming read's start options: which mode {@code default} means, which options
 * each mode needs and forbids, and that the snapshot or time given lies within the table's history.
 * Each refusal names the options and the values.
 */
final class StartOptions {

    private static final String ID = "scan.snapshot-id";
    private static final String TIME = "scan.timestamp-millis";

    /**
     * The mode the options select, checked for what it needs.
     *
     * @throws IllegalArgumentException if an option the mode needs is missing or one conflicts
     */
    static ScanMode resolve(String table, TableConfig config) {
        ScanMode mode = config.stream().mode();
        Long id = config.scanSnapshotId();
        Long time = config.scanTimestampMillis();
        if (config.stream().between() != null) {
            throw conflict(table, "'incremental-between' (a bounded read of changes)", mode);
        }
        if (config.lifecycle().scanTagName() != null) {
            return tagMode(table, config.lifecycle().scanTagName(), mode);
        }
        if (id != null && time != null) {
            throw new IllegalArgumentException(
                    String.format(
                            "Conflicting start options for table %s: '%s' = %d and '%s' = %d;"
                                    + " give one",
                            table, ID, id, TIME, time));
        }
        if (mode == ScanMode.DEFAULT) {
            return id != null
                    ? ScanMode.FROM_SNAPSHOT
                    : time != null ? ScanMode.FROM_TIMESTAMP : ScanMode.LATEST_FULL;
        }
        if (mode.needsSnapshotId() && id == null) {
            throw new IllegalArgumentException(
                    String.format(
                            "Option 'scan.mode' = '%s' of table %s needs '%s': the snapshot to"
                                    + " start at",
                            mode, table, ID));
        }
        if (mode == ScanMode.FROM_TIMESTAMP && time == null) {
            throw new IllegalArgumentException(
                    String.format(
                            "Option 'scan.mode' = '%s' of table %s needs '%s': the time to start"
                                    + " after",
                            mode, table, TIME));
        }
        if (id != null && !mode.needsSnapshotId()) {
            throw conflict(table, "'" + ID + "' = " + id, mode);
        }
        if (time != null && mode != ScanMode.FROM_TIMESTAMP) {
            throw conflict(table, "'" + TIME + "' = " + time, mode);
        }
        return mode;
    }

    /**
     * The mode of a read that starts at a tag: {@code default} and {@code from-snapshot-full} read
     * the tag's snapshot whole, then the changes after it; {@code from-snapshot} reads the changes
     * from the tag's snapshot on. The tag's own options are checked by {@link #tagged}.
     */
    private static ScanMode tagMode(String table, String tag, ScanMode mode) {
        return switch (mode) {
            case DEFAULT, FROM_SNAPSHOT_FULL -> ScanMode.FROM_SNAPSHOT_FULL;
            case FROM_SNAPSHOT -> ScanMode.FROM_SNAPSHOT;
            default ->
                    throw conflict(
                            table,
                            "'scan.tag-name' = '"
                                    + tag
                                    + "' (a start at a tag: 'scan.mode' = 'default',"
                                    + " 'from-snapshot' or 'from-snapshot-full')",
                            mode);
        };
    }

    private static IllegalArgumentException conflict(String table, String given, ScanMode mode) {
        return new IllegalArgumentException(
                String.format(
                        "Conflicting start options for table %s: %s does not go with 'scan.mode'"
                                + " = '%s'",
                        table, given, mode));
    }

    /** {@code scan.snapshot-id}, checked to be a snapshot the table has. */
    static long checkedId(TableContext table, TableConfig config) {
        return existing(table, config.scanSnapshotId()).id();
    }

    /**
     * Snapshot {@code id} of {@code scan.snapshot-id}, for a batch or a streaming read.
     *
     * @throws IllegalArgumentException naming the table, the id and the table's history if there is
     *     no such snapshot
     */
    static Snapshot existing(TableContext table, long id) {
        SnapshotManager snapshots = table.snapshotManager();
        OptionalLong earliest = snapshots.earliestId();
        OptionalLong latest = snapshots.latestId();
        if (earliest.isEmpty()
                || id < earliest.getAsLong()
                || id > latest.getAsLong()
                || !snapshots.exists(id)) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid '%s' for table %s: snapshot %d does not exist; %s%s",
                            ID,
                            table.name(),
                            id,
                            history(earliest, latest),
                            id >= 1 && earliest.isPresent() && id < earliest.getAsLong()
                                    ? expired(table, id)
                                    : ""));
        }
        return snapshots.snapshot(id);
    }

    /** Why an old snapshot is gone: expiration, and the option that decides it. */
    private static String expired(TableContext table, long id) {
        TableConfig.Retention retention = table.config().lifecycle().retention();
        return String.format(
                ". Snapshot %d has expired: the table keeps snapshots for 'snapshot.time-retained'"
                        + " = %s (at least 'snapshot.num-retained.min' = %d of them); tag a"
                        + " snapshot to keep it longer",
                id, retention.time(), retention.min());
    }

    /**
     * The snapshot of tag {@code scan.tag-name}, for a batch read; the tag keeps it readable after
     * the snapshot itself expired.
     *
     * @throws IllegalArgumentException naming the tag and the table if there is no such tag, or
     *     another option selects a snapshot too
     */
    static Snapshot tagged(TableContext table, String tag) {
        TableConfig config = table.config();
        if (config.scanSnapshotId() != null || config.scanTimestampMillis() != null) {
            throw new IllegalArgumentException(
                    String.format(
                            "Conflicting options for table %s: 'scan.tag-name' = '%s' and '%s'"
                                    + " both select a snapshot; give one",
                            table.name(), tag, config.scanSnapshotId() != null ? ID : TIME));
        }
        return table.tags()
                .get(tag)
                .orElseThrow(
                        () ->
                                new IllegalArgumentException(
                                        String.format(
                                                "Invalid 'scan.tag-name' for table %s: tag '%s'"
                                                        + " does not exist; the table has tags %s",
                                                table.name(),
                                                tag,
                                                table.tags().list().stream()
                                                        .map(Tags.Tag::name)
                                                        .toList())))
                .snapshot();
    }

    /**
     * The first snapshot committed after {@code scan.timestamp-millis}.
     *
     * @throws IllegalArgumentException if the time is before the first snapshot or after the last
     */
    static long afterTimestamp(TableContext table, TableConfig config) {
        long time = config.scanTimestampMillis();
        SnapshotManager snapshots = table.snapshotManager();
        OptionalLong earliest = snapshots.earliestId();
        OptionalLong latest = snapshots.latestId();
        if (earliest.isEmpty()) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid '%s' = %d for table %s: the table has no snapshot yet; use"
                                    + " 'scan.mode' = 'latest'",
                            TIME, time, table.name()));
        }
        Snapshot first = snapshots.snapshot(earliest.getAsLong());
        Snapshot last = snapshots.snapshot(latest.getAsLong());
        if (time < first.commit().timeMillis() || time > last.commit().timeMillis()) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid '%s' = %d (%s) for table %s: it is outside the table's"
                                    + " history, from snapshot %d committed at %s to snapshot %d"
                                    + " committed at %s",
                            TIME,
                            time,
                            Instant.ofEpochMilli(time),
                            table.name(),
                            first.id(),
                            Instant.ofEpochMilli(first.commit().timeMillis()),
                            last.id(),
                            Instant.ofEpochMilli(last.commit().timeMillis())));
        }
        return snapshots.atOrBefore(time).id() + 1;
    }

    /** Checks that every snapshot of {@code incremental-between} is there. */
    static void checkBetween(TableContext table, StreamConfig.Between between) {
        SnapshotManager snapshots = table.snapshotManager();
        OptionalLong earliest = snapshots.earliestId();
        OptionalLong latest = snapshots.latestId();
        if (earliest.isEmpty()
                || between.after() + 1 < earliest.getAsLong()
                || between.upTo() > latest.getAsLong()) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid 'incremental-between' = '%d,%d' for table %s: it needs"
                                    + " snapshots %d to %d, and %s",
                            between.after(),
                            between.upTo(),
                            table.name(),
                            between.after() + 1,
                            between.upTo(),
                            history(earliest, latest)));
        }
    }

    private static String history(OptionalLong earliest, OptionalLong latest) {
        return earliest.isEmpty()
                ? "the table has no snapshot yet"
                : String.format(
                        "the table has snapshots %d to %d",
                        earliest.getAsLong(), latest.getAsLong());
    }

    private StartOptions() {}
}
