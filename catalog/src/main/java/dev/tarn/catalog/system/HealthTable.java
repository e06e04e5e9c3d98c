package dev.tarn.catalog.system;

import static dev.tarn.catalog.system.SystemTableValues.field;
import static dev.tarn.catalog.system.SystemTableValues.timestamp;

import dev.tarn.format.Table;
import dev.tarn.format.maintenance.PendingCheck;
import dev.tarn.format.maintenance.TableHealth;
import dev.tarn.format.snapshot.Snapshot;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code t$health}: one row that sums up the table's state for an operator ({@link TableHealth}),
 * always of the table as it is now (time-travel options do not apply). Tarn's own: Apache Paimon
 * has no such table. The rows per bucket behind the level-0 columns are {@code t$buckets}', the
 * consumers behind the lag columns {@code t$consumers}'; the pending commits are the ledger's
 * records that no snapshot published, by commit user, as {@code check_table} reads them.
 */
final class HealthTable {

    static final RowType TYPE =
            SystemTableValues.rowType(
                    field("snapshot_count", DataTypes.INT().notNull()),
                    field("earliest_snapshot_id", DataTypes.BIGINT()),
                    field("earliest_commit_time", SystemTableValues.time()),
                    field("latest_snapshot_id", DataTypes.BIGINT()),
                    field("latest_commit_time", SystemTableValues.time()),
                    field("bucket_count", DataTypes.BIGINT().notNull()),
                    field("max_level0_file_count", DataTypes.BIGINT()),
                    field("avg_level0_file_count", DataTypes.DOUBLE()),
                    field("file_count", DataTypes.BIGINT().notNull()),
                    field("small_file_count", DataTypes.BIGINT().notNull()),
                    field("small_file_threshold", DataTypes.BIGINT().notNull()),
                    field("consumer_count", DataTypes.INT().notNull()),
                    field("max_consumer_lag", DataTypes.BIGINT().notNull()),
                    field("furthest_consumer_id", DataTypes.STRING()),
                    field("damaged_file_count", DataTypes.INT().notNull()),
                    field("newest_whole_snapshot_id", DataTypes.BIGINT()),
                    field("pending_commit_count", DataTypes.INT().notNull()),
                    field(
                            "pending_commits",
                            DataTypes.MAP(DataTypes.STRING(), DataTypes.ARRAY(DataTypes.BIGINT()))
                                    .notNull()),
                    field("oldest_pending_commit_time", SystemTableValues.time()),
                    field("missing_prepared_file_count", DataTypes.INT().notNull()));

    static List<RowData> rows(Table table) {
        TableHealth.Report r = table.maintenance().health();
        Snapshot earliest = r.snapshots().earliest();
        Snapshot latest = r.snapshots().latest();
        PendingCheck.Result pending = r.integrity().pending();
        return List.of(
                GenericRowData.of(
                        r.snapshots().retained(),
                        id(earliest),
                        earliest == null ? null : timestamp(earliest.commit().timeMillis()),
                        id(latest),
                        latest == null ? null : timestamp(latest.commit().timeMillis()),
                        r.files().buckets(),
                        r.level0() == null ? null : r.level0().maxFiles(),
                        r.level0() == null ? null : r.level0().avgFiles(),
                        r.files().count(),
                        r.files().small(),
                        r.files().smallBelowBytes(),
                        r.consumers().count(),
                        r.consumers().maxLag(),
                        StringData.fromString(r.consumers().furthest()),
                        r.integrity().problems().size(),
                        r.integrity().newestWhole().isPresent()
                                ? r.integrity().newestWhole().getAsLong()
                                : null,
                        pending.pendingCount(),
                        pendingCommits(pending),
                        timestamp(oldest(pending)),
                        pending.missing().size()));
    }

    /** Each commit user's pending checkpoints, ascending. */
    private static MapData pendingCommits(PendingCheck.Result pending) {
        Map<StringData, ArrayData> byUser = new LinkedHashMap<>();
        for (PendingCheck.UserPending user : pending.byUser()) {
            long[] checkpoints = user.checkpoints().stream().mapToLong(Long::longValue).toArray();
            byUser.put(StringData.fromString(user.user()), new GenericArrayData(checkpoints));
        }
        return new GenericMapData(byUser);
    }

    /** When the oldest of the pending users' records was written; null without any. */
    @Nullable
    private static Long oldest(PendingCheck.Result pending) {
        return pending.byUser().stream()
                .map(u -> u.recordedAt().toEpochMilli())
                .min(Long::compare)
                .orElse(null);
    }

    @Nullable
    private static Long id(@Nullable Snapshot snapshot) {
        return snapshot == null ? null : snapshot.id();
    }

    private HealthTable() {}
}
