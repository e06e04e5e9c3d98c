package dev.tarn.catalog.system;

import static dev.tarn.catalog.TestCatalogTables.events;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.catalog.TarnCatalog;
import dev.tarn.catalog.TestCatalogTables;
import dev.tarn.format.Table;
import dev.tarn.format.io.FileIO;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The system tables without a cluster: how the catalog names, hands out and refuses them, and the
 * rows computed from a table's metadata.
 */
class SystemTablesTest {

    private static final ObjectPath EVENTS = new ObjectPath("db", "events");
    private static final ObjectPath KEYED = new ObjectPath("db", "keyed");

    @TempDir java.nio.file.Path lake;
    private TarnCatalog catalog;

    @BeforeEach
    void createTables() throws Exception {
        catalog = new TarnCatalog("lake", new Path(lake.toUri()), "db");
        catalog.open();
        catalog.createTable(EVENTS, events(Map.of()), false);
        ResolvedSchema keyed =
                new ResolvedSchema(
                        List.of(
                                Column.physical("id", DataTypes.BIGINT().notNull()),
                                Column.physical("v", DataTypes.STRING()),
                                Column.physical("dt", DataTypes.STRING().notNull())),
                        List.of(),
                        UniqueConstraint.primaryKey("pk", List.of("id", "dt")),
                        List.of());
        catalog.createTable(
                KEYED,
                TestCatalogTables.table(keyed, List.of("dt"), Map.of("bucket", "1"), null),
                false);
    }

    private Table table(ObjectPath path) {
        Path location = new Path(lake.resolve("db.db/" + path.getObjectName()).toUri());
        return Table.load(FileIO.flinkFileSystems(), location, path.getFullName());
    }

    private void append(ObjectPath path, long commit, Object[]... rows) {
        TestCatalogTables.append(
                new Path(lake.resolve("db.db/" + path.getObjectName()).toUri()),
                path.getFullName(),
                commit,
                rows);
    }

    private static List<String> text(List<RowData> rows) {
        return rows.stream().map(Object::toString).toList();
    }

    @Test
    void aSystemTableIsItsColumnsAndTheOptionsThatRouteItToTheConnector() throws Exception {
        CatalogTable snapshots =
                (CatalogTable) catalog.getTable(new ObjectPath("db", "events$snapshots"));
        assertThat(snapshots.getOptions())
                .containsEntry("system-table", "snapshots")
                .containsEntry("path", "file:" + lake.resolve("db.db/events"))
                .hasSize(2);
        assertThat(snapshots.getUnresolvedSchema().getColumns())
                .extracting(Schema -> Schema.getName())
                .startsWith("snapshot_id", "schema_id", "commit_user")
                .endsWith("changelog_record_count", "watermark");
        assertThat(snapshots.getPartitionKeys()).isEmpty();
        assertThat(snapshots.getComment()).isEqualTo("System table snapshots of table db.events");

        CatalogTable audit =
                (CatalogTable) catalog.getTable(new ObjectPath("db", "keyed$AUDIT_LOG"));
        assertThat(audit.getUnresolvedSchema().getColumns())
                .extracting(Schema -> Schema.getName())
                .containsExactly("rowkind", "id", "v", "dt");
        assertThat(audit.getUnresolvedSchema().getPrimaryKey()).isEmpty();
        assertThat(audit.getOptions()).containsEntry("system-table", "audit_log");

        long now = System.currentTimeMillis();
        append(EVENTS, 1, new Object[] {1L, "a", "d"});
        CatalogTable asOf =
                (CatalogTable) catalog.getTable(new ObjectPath("db", "events$files"), now + 60_000);
        assertThat(asOf.getOptions())
                .containsEntry("scan.timestamp-millis", String.valueOf(now + 60_000));

        assertThat(catalog.tableExists(new ObjectPath("db", "events$files"))).isTrue();
        assertThat(catalog.tableExists(new ObjectPath("db", "events$nope"))).isFalse();
        assertThat(catalog.tableExists(new ObjectPath("db", "gone$files"))).isFalse();
        assertThat(catalog.listTables("db")).containsExactly("events", "keyed");
    }

    @Test
    void anUnknownSystemTableOrAMissingTableDoesNotExistByName() {
        assertThatThrownBy(() -> catalog.getTable(new ObjectPath("db", "events$nope")))
                .isInstanceOf(TableNotExistException.class)
                .hasMessage("Table (or view) db.events$nope does not exist in Catalog lake.")
                .cause()
                .hasMessage(
                        "Unknown system table 'nope' in db.events$nope: a Tarn table's system"
                                + " tables are [snapshots, schemas, options, files, manifests,"
                                + " partitions, buckets, consumers, tags, deletion_vectors, health, audit_log]");
        assertThatThrownBy(() -> catalog.getTable(new ObjectPath("db", "gone$snapshots")))
                .isInstanceOf(TableNotExistException.class)
                .hasMessage("Table (or view) db.gone$snapshots does not exist in Catalog lake.")
                .cause()
                .hasMessage("Table (or view) db.gone does not exist in Catalog lake.");
    }

    @Test
    void systemTablesAreNeverChanged() throws Exception {
        ObjectPath snapshots = new ObjectPath("db", "events$snapshots");
        String readOnly =
                " in catalog lake: a name with '$' is a system table (one of [snapshots, schemas,"
                        + " options, files, manifests, partitions, buckets, consumers, tags, deletion_vectors, health, audit_log]"
                        + " after the '$'), and system tables are read-only";
        assertThatThrownBy(() -> catalog.dropTable(snapshots, true))
                .isInstanceOf(CatalogException.class)
                .hasMessage("Cannot drop table db.events$snapshots" + readOnly);
        assertThatThrownBy(() -> catalog.alterTable(snapshots, events(Map.of()), true))
                .isInstanceOf(CatalogException.class)
                .hasMessage("Cannot alter table db.events$snapshots" + readOnly);
        assertThatThrownBy(() -> catalog.renameTable(snapshots, "other", true))
                .isInstanceOf(CatalogException.class)
                .hasMessage("Cannot rename table db.events$snapshots" + readOnly);
        assertThatThrownBy(() -> catalog.renameTable(EVENTS, "events$files", false))
                .isInstanceOf(CatalogException.class)
                .hasMessage("Cannot rename to table db.events$files" + readOnly);
        assertThatThrownBy(
                        () ->
                                catalog.createTable(
                                        new ObjectPath("db", "a$b"), events(Map.of()), false))
                .isInstanceOf(CatalogException.class)
                .hasMessage("Cannot create table db.a$b" + readOnly);
        assertThat(catalog.tableExists(EVENTS)).isTrue();
    }

    @Test
    void snapshotsShowWhatEachSnapshotRecords() {
        assertThat(SnapshotsTable.rows(table(EVENTS))).isEmpty();
        long before = System.currentTimeMillis();
        append(EVENTS, 7, new Object[] {1L, "a", "d"}, new Object[] {2L, "b", "d"});
        append(EVENTS, 8, new Object[] {3L, "c", "e"});
        List<RowData> rows = SnapshotsTable.rows(table(EVENTS));
        assertThat(rows).hasSize(2);
        RowData second = rows.get(1);
        assertThat(second.getLong(0)).isEqualTo(2);
        assertThat(second.getLong(1)).isEqualTo(0);
        assertThat(second.getString(2).toString()).isEqualTo("test");
        assertThat(second.getLong(3)).isEqualTo(8);
        assertThat(second.getString(4).toString()).isEqualTo("APPEND");
        assertThat(second.getTimestamp(5, 3).toLocalDateTime())
                .isAfterOrEqualTo(SystemTableValues.timestamp(before).toLocalDateTime())
                .isBeforeOrEqualTo(LocalDateTime.now());
        assertThat(second.getString(6).toString()).startsWith("manifest-list-");
        assertThat(second.getString(7).toString()).startsWith("manifest-list-");
        assertThat(second.isNullAt(8)).as("no changelog manifest list").isTrue();
        assertThat(second.getLong(9)).isEqualTo(3);
        assertThat(second.getLong(10)).isEqualTo(1);
        assertThat(second.isNullAt(11)).as("no changelog rows").isTrue();
        assertThat(second.isNullAt(12)).as("no watermark").isTrue();
        assertThat(rows.get(0).getLong(9)).isEqualTo(2);
    }

    @Test
    void healthIsOneRowOfTheTablesStateNow() throws Exception {
        List<RowData> empty = HealthTable.rows(table(KEYED));
        assertThat(text(empty))
                .singleElement()
                .asString()
                .startsWith("+I(0,null,null,null,null,0,0,0.0,0,0,67108864,0,0,null,0,null,0,")
                .endsWith(",null,0)");
        assertThat(empty.get(0).getMap(17).size()).as("pending_commits").isZero();
        append(KEYED, 1, new Object[] {5L, "x", "d"}, new Object[] {9L, "z", "e"});
        append(KEYED, 2, new Object[] {5L, "y", "d"});
        table(KEYED).consumers().record("dashboard", 1, 0);
        // Checkpoints 8 and 9 of a job whose commits are held back (the record of 9, carrying 8
        // too, replaced that of 8), and 3 of another job.
        table(KEYED).pendingCommits().record("job-b", 8, new TreeMap<>(Map.of(8L, List.of())), 7);
        table(KEYED)
                .pendingCommits()
                .record("job-b", 9, new TreeMap<>(Map.of(8L, List.of(), 9L, List.of())), 9);
        table(KEYED).pendingCommits().record("job-a", 3, new TreeMap<>(Map.of(3L, List.of())), 8);

        RowData row = HealthTable.rows(table(KEYED)).get(0);

        assertThat(row.getInt(0)).as("snapshot_count").isEqualTo(2);
        assertThat(row.getLong(1)).as("earliest_snapshot_id").isEqualTo(1);
        assertThat(row.getTimestamp(2, 3)).as("earliest_commit_time").isNotNull();
        assertThat(row.getLong(3)).as("latest_snapshot_id").isEqualTo(2);
        assertThat(row.getLong(5)).as("bucket_count").isEqualTo(2);
        assertThat(row.getLong(6)).as("max_level0_file_count").isEqualTo(2);
        assertThat(row.getDouble(7)).as("avg_level0_file_count").isEqualTo(1.5);
        assertThat(row.getLong(8)).as("file_count").isEqualTo(3);
        assertThat(row.getLong(9)).as("small_file_count").isEqualTo(3);
        assertThat(row.getInt(11)).as("consumer_count").isEqualTo(1);
        assertThat(row.getLong(12)).as("max_consumer_lag").isEqualTo(2);
        assertThat(row.getString(13).toString()).isEqualTo("dashboard");
        assertThat(row.getInt(14)).as("damaged_file_count").isZero();
        assertThat(row.getLong(15)).as("newest_whole_snapshot_id").isEqualTo(2);
        assertThat(row.getInt(16)).as("pending_commit_count").isEqualTo(3);
        MapData pending = row.getMap(17);
        Map<String, List<Long>> byUser = new TreeMap<>();
        for (int i = 0; i < pending.size(); i++) {
            byUser.put(
                    pending.keyArray().getString(i).toString(),
                    Arrays.stream(pending.valueArray().getArray(i).toLongArray()).boxed().toList());
        }
        assertThat(byUser)
                .as("pending_commits")
                .isEqualTo(Map.of("job-a", List.of(3L), "job-b", List.of(8L, 9L)));
        assertThat(row.getTimestamp(18, 3))
                .as("oldest_pending_commit_time: job-a's, job-b's was replaced later")
                .isEqualTo(SystemTableValues.timestamp(8L));
        assertThat(row.getInt(19)).as("missing_prepared_file_count").isZero();
        assertThat(HealthTable.rows(table(EVENTS)).get(0).isNullAt(6))
                .as("an append table has no level-0 backlog")
                .isTrue();
    }

    @Test
    void filesShowKeysStatisticsAndPartitionsAsText() {
        append(
                KEYED,
                1,
                new Object[] {5L, "x", "d"},
                new Object[] {2L, null, "d"},
                new Object[] {9L, "z", "e"});
        Table keyed = table(KEYED);
        List<RowData> files = FilesTable.rows(keyed);
        assertThat(files).hasSize(2);
        RowData d =
                files.get(0).getString(0).toString().equals("dt=d") ? files.get(0) : files.get(1);
        RowData e = d == files.get(0) ? files.get(1) : files.get(0);
        assertThat(e.getString(0).toString()).isEqualTo("dt=e");
        assertThat(d.getInt(1)).isEqualTo(0);
        assertThat(d.getString(2).toString())
                .startsWith("file:" + lake.resolve("db.db/keyed/dt=d/bucket-0/data-"))
                .endsWith(".parquet");
        assertThat(d.getString(3).toString()).isEqualTo("parquet");
        assertThat(d.getLong(4)).isEqualTo(0);
        assertThat(d.getInt(5)).isEqualTo(0);
        assertThat(d.getLong(6)).isEqualTo(2);
        assertThat(d.getLong(7)).isPositive();
        assertThat(d.getString(8).toString()).isEqualTo("[2, d]");
        assertThat(d.getString(9).toString()).isEqualTo("[5, d]");
        assertThat(d.getString(10).toString()).isEqualTo("{id=0, v=1, dt=0}");
        assertThat(d.getString(11).toString()).isEqualTo("{id=2, v=x, dt=d}");
        assertThat(d.getString(12).toString()).isEqualTo("{id=5, v=x, dt=d}");
        assertThat(d.getLong(13)).isLessThanOrEqualTo(d.getLong(14));
        assertThat(d.isNullAt(15)).as("creation time").isFalse();
        assertThat(d.getLong(16)).as("deleted rows: no deletion vector").isZero();
        assertThat(e.getString(8).toString()).isEqualTo("[9, e]");

        List<String> partitions = text(PartitionsTable.rows(keyed));
        assertThat(partitions).hasSize(2);
        assertThat(partitions.get(0)).startsWith("+I(dt=d,2," + d.getLong(7) + ",1,");
        assertThat(partitions.get(1)).startsWith("+I(dt=e,1,");
        List<String> buckets = text(BucketsTable.rows(keyed));
        assertThat(buckets.get(0)).startsWith("+I(dt=d,0,2," + d.getLong(7) + ",1,1,");

        append(EVENTS, 1, new Object[] {1L, "a", null});
        assertThat(text(PartitionsTable.rows(table(EVENTS))))
                .singleElement()
                .asString()
                .startsWith("+I(dt=\\N,1,");
    }

    @Test
    void anUnpartitionedTableIsOnePartitionWithAnEmptyName() throws Exception {
        ObjectPath plain = new ObjectPath("db", "plain");
        catalog.createTable(
                plain,
                TestCatalogTables.table(
                        ResolvedSchema.of(
                                Column.physical("id", DataTypes.BIGINT()),
                                Column.physical("v", DataTypes.STRING()),
                                Column.physical("w", DataTypes.STRING())),
                        List.of(),
                        Map.of(),
                        null),
                false);
        append(plain, 1, new Object[] {1L, "a", "b"});
        assertThat(text(PartitionsTable.rows(table(plain))))
                .singleElement()
                .asString()
                .startsWith("+I(,1,");
        RowType type = SystemTable.AUDIT_LOG.rowType(table(plain));
        assertThat(type.getFieldNames()).containsExactly("rowkind", "id", "v", "w");
    }
}
