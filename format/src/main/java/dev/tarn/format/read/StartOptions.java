package dev.tarn.format.read;

import dev.tarn.format.schema.ScanPosition;
import dev.tarn.format.schema.StreamConfig;
import dev.tarn.format.schema.StreamConfig.ScanMode;
import dev.tarn.format.schema.TableConfig;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.SnapshotManager;
import dev.tarn.format.snapshot.Tags;
import dev.tarn.format.table.TableContext;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * The rules of a read's start options, for batch and streaming reads and the bounded read of
 * changes alike: at most one {@link ScanPosition} (a snapshot id, a time, a tag, or the snapshots
 * of {@code incremental-between}), only with a {@code scan.mode} that takes it, and one if the mode
 * needs it; which mode {@code default} means; and that the snapshot or time given lies within the
 * table's history. Each refusal names the options and the values.
 */
final class StartOptions {

    private static final String ID = "scan.snapshot-id";
    private static final String TIME = "scan.timestamp-millis";

    /**
     * The mode the options select, checked against the position they give. Every planner calls this
     * first, so a combination one of them would ignore is refused by all of them.
     *
     * @return the mode; {@code default} resolved by the position given ({@code from-snapshot} for
     *     an id, {@code from-snapshot-full} for a tag, {@code from-timestamp} for a time, {@code
     *     latest-full} for none), and left {@code default} only for {@code incremental-between}
     * @throws IllegalArgumentException naming both options and their values if two positions are
     *     given or the mode does not take the one given, or the mode and the options it needs if it
     *     has none
     */
    static ScanMode resolve(String table, TableConfig config) {
        ScanMode mode = config.stream().mode();
        ScanPosition given = null;
        for (ScanPosition position : ScanPosition.values()) {
            if (position.shownValue(config) == null) {
                continue;
            }
            if (given != null) {
                throw new IllegalArgumentException(
                        String.format(
                                "Conflicting options for table %s: '%s' = %s and '%s' = %s both"
                                        + " say what the read starts at; give one",
                                table,
                                given.key(),
                                given.shownValue(config),
                                position.key(),
                                position.shownValue(config)));
            }
            given = position;
        }
        if (given == null) {
            if (mode.needsPosition()) {
                throw new IllegalArgumentException(
                        String.format(
                                "Option 'scan.mode' = '%s' of table %s needs %s: %s; give one as a"
                                        + " hint",
                                mode,
                                table,
                                alternatives(mode.takes().stream().map(ScanPosition::key)),
                                mode.takes().contains(ScanPosition.SNAPSHOT_ID)
                                        ? "the snapshot to read or start at"
                                        : "the time to read at or start after"));
            }
            return mode == ScanMode.DEFAULT ? ScanMode.LATEST_FULL : mode;
        }
        if (!mode.takes().contains(given)) {
            ScanPosition position = given;
            throw new IllegalArgumentException(
                    String.format(
                            "Conflicting options for table %s: '%s' = %s does not go with"
                                    + " 'scan.mode' = '%s'; it goes with %s",
                            table,
                            given.key(),
                            given.shownValue(config),
                            mode,
                            alternatives(
                                    Arrays.stream(ScanMode.values())
                                            .filter(m -> m.takes().contains(position))
                                            .map(ScanMode::key))));
        }
        if (mode != ScanMode.DEFAULT) {
            return mode;
        }
        return switch (given) {
            case SNAPSHOT_ID -> ScanMode.FROM_SNAPSHOT;
            case TIMESTAMP -> ScanMode.FROM_TIMESTAMP;
            case TAG -> ScanMode.FROM_SNAPSHOT_FULL;
            case BETWEEN -> ScanMode.DEFAULT;
        };
    }

    /** {@code 'a'}, {@code 'a' or 'b'}, {@code 'a', 'b' or 'c'}. */
    private static String alternatives(Stream<String> values) {
        List<String> quoted = values.map(v -> "'" + v + "'").toList();
        int last = quoted.size() - 1;
        return last == 0
                ? quoted.get(0)
                : String.join(", ", quoted.subList(0, last)) + " or " + quoted.get(last);
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
     * The snapshot of tag {@code scan.tag-name}; the tag keeps it readable after the snapshot
     * itself expired. The options are checked by {@link #resolve} first.
     *
     * @throws IllegalArgumentException naming the tag and the table if there is no such tag
     */
    static Snapshot tagged(TableContext table, String tag) {
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

    /**
     * Checks the options of a bounded read of changes ({@link #resolve}) and that every snapshot of
     * {@code incremental-between} is there.
     */
    static void checkBetween(TableContext table, StreamConfig.Between between) {
        resolve(table.name(), table.config());
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
