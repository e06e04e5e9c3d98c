package dev.tarn.format.schema;

import java.util.Arrays;
import java.util.List;

/**
 * Where a streaming read starts ({@code scan.mode}, with Apache Paimon's names): with the full
 * contents of a snapshot followed by the changes of every later one, or with the changes alone. A
 * batch read always reads one snapshot whole, chosen by {@code scan.snapshot-id} or {@code
 * scan.timestamp-millis}.
 */
public enum ScanMode {

    /**
     * {@link #FROM_SNAPSHOT} if {@code scan.snapshot-id} is set, {@link #FROM_TIMESTAMP} if {@code
     * scan.timestamp-millis} is, else {@link #LATEST_FULL}.
     */
    DEFAULT("default", false),

    /** The latest snapshot whole, then the changes of every later snapshot. */
    LATEST_FULL("latest-full", false),

    /** Only the changes of snapshots committed after the read starts. */
    LATEST("latest", false),

    /** The changes of snapshot {@code scan.snapshot-id} and of every later one. */
    FROM_SNAPSHOT("from-snapshot", true),

    /** Snapshot {@code scan.snapshot-id} whole, then the changes of every later snapshot. */
    FROM_SNAPSHOT_FULL("from-snapshot-full", true),

    /** The changes of the snapshots committed after {@code scan.timestamp-millis}. */
    FROM_TIMESTAMP("from-timestamp", false);

    private final String key;
    private final boolean needsSnapshotId;

    ScanMode(String key, boolean needsSnapshotId) {
        this.key = key;
        this.needsSnapshotId = needsSnapshotId;
    }

    /** The value of {@code scan.mode} that selects this mode. */
    public String key() {
        return key;
    }

    /** Whether the mode starts at the snapshot {@code scan.snapshot-id} names. */
    public boolean needsSnapshotId() {
        return needsSnapshotId;
    }

    /** Whether the read starts with one snapshot whole before its changes. */
    public boolean readsFullSnapshot() {
        return this == LATEST_FULL || this == FROM_SNAPSHOT_FULL;
    }

    /**
     * The mode the option value names, matched exactly.
     *
     * @throws IllegalArgumentException naming the value, the table and the supported values
     */
    public static ScanMode fromOption(String table, String value) {
        for (ScanMode mode : values()) {
            if (mode.key.equals(value)) {
                return mode;
            }
        }
        throw new IllegalArgumentException(
                String.format(
                        "Invalid value '%s' for option 'scan.mode' of table %s; supported are %s",
                        value, table, keys()));
    }

    static List<String> keys() {
        return Arrays.stream(values()).map(ScanMode::key).toList();
    }

    @Override
    public String toString() {
        return key;
    }
}
