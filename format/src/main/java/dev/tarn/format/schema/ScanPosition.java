package dev.tarn.format.schema;

import java.time.Instant;
import javax.annotation.Nullable;

/**
 * An option that says what a read starts at, or reads: a snapshot by id or by tag, a time, or the
 * changes between two snapshots. A read takes at most one of them, and only with a {@code
 * scan.mode} that uses it ({@link StreamConfig.ScanMode#takes}); all four are per-query hints.
 */
public enum ScanPosition {

    /** {@code scan.snapshot-id}: a snapshot by id. */
    SNAPSHOT_ID,

    /** {@code scan.timestamp-millis}: the last snapshot committed at or before a time. */
    TIMESTAMP,

    /** {@code scan.tag-name}: the snapshot a tag holds. */
    TAG,

    /** {@code incremental-between}: the changes of some snapshots, bounded. */
    BETWEEN;

    /**
     * The option's key. Looked up when asked, not held: {@link TableOptions} builds {@code
     * scan.mode}'s default from {@link StreamConfig.ScanMode}, which lists these, while it
     * initializes.
     */
    public String key() {
        return switch (this) {
            case SNAPSHOT_ID -> TableOptions.SCAN_SNAPSHOT_ID.key();
            case TIMESTAMP -> TableOptions.SCAN_TIMESTAMP_MILLIS.key();
            case TAG -> RetentionOptions.SCAN_TAG_NAME.key();
            case BETWEEN -> TableOptions.INCREMENTAL_BETWEEN.key();
        };
    }

    /**
     * The option's value in {@code config} as error messages show it ({@code 42}, {@code 'eod'}, a
     * time with its instant), or null if it is not given.
     */
    @Nullable
    public String shownValue(TableConfig config) {
        return switch (this) {
            case SNAPSHOT_ID ->
                    config.scanSnapshotId() == null ? null : config.scanSnapshotId().toString();
            case TIMESTAMP ->
                    config.scanTimestampMillis() == null
                            ? null
                            : config.scanTimestampMillis()
                                    + " ("
                                    + Instant.ofEpochMilli(config.scanTimestampMillis())
                                    + ")";
            case TAG ->
                    config.lifecycle().scanTagName() == null
                            ? null
                            : "'" + config.lifecycle().scanTagName() + "'";
            case BETWEEN -> {
                StreamConfig.Between between = config.stream().between();
                yield between == null ? null : "'" + between.after() + "," + between.upTo() + "'";
            }
        };
    }
}
