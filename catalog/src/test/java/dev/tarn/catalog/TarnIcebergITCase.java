package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.iceberg.IcebergFileIO;
import dev.tarn.format.io.FileIO;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables with {@code metadata.iceberg.storage} = {@code table-location}, written through SQL on a
 * MiniCluster and read with Iceberg's own Java API (its generic reader over the metadata Tarn
 * writes): the Iceberg read of a snapshot equals Tarn's batch read of it, row for row.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class TarnIcebergITCase {

    @RegisterExtension static final MiniClusterExtension CLUSTER = LakeSql.miniCluster();

    private static final String ICEBERG = "'metadata.iceberg.storage' = 'table-location'";

    @TempDir Path lake;
    private LakeSql batch;

    @BeforeEach
    void open() {
        batch = LakeSql.open(lake);
    }

    private IcebergReads iceberg(String table) {
        return new IcebergReads(
                FileIO.flinkFileSystems(),
                new org.apache.flink.core.fs.Path(lake.toUri() + "/db.db/" + table));
    }

    private List<String> tarn(String table) throws Exception {
        return batch.query("SELECT * FROM db." + table);
    }

    private List<String> tarnAt(String table, long snapshot) throws Exception {
        return batch.query(
                "SELECT * FROM db."
                        + table
                        + " /*+ OPTIONS('scan.snapshot-id' = '"
                        + snapshot
                        + "') */");
    }

    @Test
    void anAppendTableReadsInIcebergAsInTarnAndEachAppendWritesOneManifest() throws Exception {
        batch.exec(
                "CREATE TABLE db.t (id INT, name STRING, amount BIGINT, d DATE) WITH ("
                        + ICEBERG
                        + ")");
        batch.exec(
                "INSERT INTO db.t VALUES (1, 'a', 10, DATE '2024-01-01'), (2, 'b', CAST(NULL AS BIGINT), CAST(NULL AS DATE))");
        batch.exec("INSERT INTO db.t VALUES (3, 'c', 30, DATE '2024-01-03')");
        batch.exec("INSERT INTO db.t VALUES (4, CAST(NULL AS STRING), 40, DATE '2024-01-04')");

        IcebergReads reads = iceberg("t");
        assertThat(reads.hint()).isEqualTo(3);
        assertThat(reads.rows()).containsExactlyInAnyOrderElementsOf(tarn("t")).hasSize(4);
        Table table = reads.table();
        assertThat(table.history()).hasSize(3);
        for (long id = 1; id <= 3; id++) {
            assertThat(IcebergReads.rows(table, id))
                    .as("Iceberg snapshot %d", id)
                    .containsExactlyInAnyOrderElementsOf(tarnAt("t", id));
        }
        Snapshot current = table.currentSnapshot();
        List<ManifestFile> manifests =
                current.dataManifests(new IcebergFileIO(FileIO.flinkFileSystems()));
        assertThat(manifests).as("one manifest per append, the older ones reused").hasSize(3);
        assertThat(manifests.stream().filter(m -> m.snapshotId() == 3)).hasSize(1);
        assertThat(
                        table.newScan()
                                .filter(org.apache.iceberg.expressions.Expressions.equal("id", 3))
                                .planFiles())
                .as("a filter prunes files by the column bounds")
                .hasSize(1);
    }

    @Test
    void aPrimaryKeyTableWithVectorsShowsTheCurrentRowOfEveryKeyAfterUpsertsDeletesAndCompaction()
            throws Exception {
        batch.exec(
                "CREATE TABLE db.pk (k INT NOT NULL, v STRING, n BIGINT, PRIMARY KEY (k) NOT"
                        + " ENFORCED) WITH ('bucket' = '2', 'deletion-vectors.enabled' = 'true', "
                        + ICEBERG
                        + ")");
        batch.exec("INSERT INTO db.pk VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', 3), (4, 'd', 4)");
        batch.exec("INSERT INTO db.pk VALUES (2, 'B', 20), (5, 'e', 5)");
        batch.exec("DELETE FROM db.pk WHERE k = 3");
        IcebergReads reads = iceberg("pk");
        Table table = reads.table();
        assertThat(((org.apache.iceberg.BaseTable) table).operations().current().formatVersion())
                .isEqualTo(3);
        assertThat(reads.rows()).containsExactlyInAnyOrderElementsOf(tarn("pk")).hasSize(4);
        long beforeCompaction = reads.hint();
        batch.exec("CALL sys.compact('db.pk')");
        IcebergReads after = iceberg("pk");
        assertThat(after.hint()).isGreaterThan(beforeCompaction);
        assertThat(after.rows()).containsExactlyInAnyOrderElementsOf(tarn("pk"));
        for (long id = 1; id <= after.hint(); id++) {
            assertThat(IcebergReads.rows(after.table(), id))
                    .as("Iceberg snapshot %d", id)
                    .containsExactlyInAnyOrderElementsOf(tarnAt("pk", id));
        }
    }

    @Test
    void schemaChangesAreIcebergSchemaChangesAndARenamedColumnKeepsItsValues() throws Exception {
        batch.exec("CREATE TABLE db.s (id INT, a INT, b STRING, c STRING) WITH (" + ICEBERG + ")");
        batch.exec("INSERT INTO db.s VALUES (1, 10, 'x', 'gone')");
        batch.exec("ALTER TABLE db.s ADD d STRING");
        batch.exec("ALTER TABLE db.s RENAME b TO bee");
        batch.exec("ALTER TABLE db.s MODIFY a BIGINT");
        batch.exec("ALTER TABLE db.s DROP c");
        batch.exec("INSERT INTO db.s VALUES (2, 20000000000, 'y', 'new')");
        IcebergReads reads = iceberg("s");
        assertThat(reads.table().schema().columns())
                .extracting(c -> c.name() + ":" + c.type())
                .containsExactly("id:int", "a:long", "bee:string", "d:string");
        assertThat(reads.rows())
                .containsExactlyInAnyOrderElementsOf(tarn("s"))
                .contains("+I[1, 10, x, null]");
    }

    @Test
    void partitionedTablesAndPartitionOverwritesReadAsInTarn() throws Exception {
        batch.exec(
                "CREATE TABLE db.p (id INT, dt STRING) PARTITIONED BY (dt) WITH (" + ICEBERG + ")");
        batch.exec("INSERT INTO db.p VALUES (1, 'a'), (2, 'b'), (3, 'a')");
        batch.exec("INSERT OVERWRITE db.p PARTITION (dt = 'a') VALUES (4)");
        IcebergReads reads = iceberg("p");
        assertThat(reads.table().spec().fields()).hasSize(1);
        assertThat(reads.rows())
                .containsExactlyInAnyOrderElementsOf(tarn("p"))
                .containsExactlyInAnyOrder("+I[2, b]", "+I[4, a]");
    }

    @Test
    void aRollbackPointsIcebergReadersAtTheRolledBackToSnapshot() throws Exception {
        batch.exec("CREATE TABLE db.r (id INT, v STRING) WITH (" + ICEBERG + ")");
        batch.exec("INSERT INTO db.r VALUES (1, 'a')");
        batch.exec("INSERT INTO db.r VALUES (2, 'b')");
        batch.exec("INSERT INTO db.r VALUES (3, 'c')");
        batch.exec("CALL lake.sys.rollback_to(`table` => 'db.r', snapshot_id => 1)");
        IcebergReads reads = iceberg("r");
        assertThat(reads.hint()).isEqualTo(1);
        assertThat(reads.rows()).containsExactly("+I[1, a]").isEqualTo(tarn("r"));
        batch.exec("INSERT INTO db.r VALUES (4, 'd')");
        assertThat(iceberg("r").hint()).isEqualTo(2);
        assertThat(iceberg("r").rows())
                .containsExactlyInAnyOrderElementsOf(tarn("r"))
                .containsExactlyInAnyOrder("+I[1, a]", "+I[4, d]");
    }

    /**
     * An INSERT whose commit dies before its snapshot is created (after the Iceberg manifests are
     * written): Tarn and every Iceberg reader, the hinted version and the path table alike, read
     * the snapshot before; the next INSERT brings both to the new one.
     */
    @Test
    void anInsertThatDiesBeforeItsSnapshotLeavesIcebergReadersOnThePreviousOne() throws Exception {
        batch.exec("CREATE TABLE db.h (id INT, v STRING) WITH (" + ICEBERG + ")");
        batch.exec("INSERT INTO db.h VALUES (1, 'a')");
        batch.exec("INSERT INTO db.h VALUES (2, 'b')");
        TableEnvironment held = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        held.getConfig().set("restart-strategy.type", "none");
        held.registerCatalog(
                "held",
                new TarnCatalog(
                        "held",
                        new org.apache.flink.core.fs.Path(lake.toUri()),
                        "db",
                        new HeldCommitFileIO()));
        HeldCommitFileIO.PUBLISHES_LEFT.set(0);
        try {
            assertThatThrownBy(
                            () -> held.executeSql("INSERT INTO held.db.h VALUES (3, 'c')").await())
                    .hasStackTraceContaining(
                            "Cannot tell whether snapshot 3 of table held.db.h was committed")
                    .hasStackTraceContaining("injected failure: commit held back before");
        } finally {
            HeldCommitFileIO.PUBLISHES_LEFT.set(Integer.MAX_VALUE);
        }

        List<String> before = tarn("h");
        assertThat(before).containsExactlyInAnyOrder("+I[1, a]", "+I[2, b]");
        IcebergReads reads = iceberg("h");
        assertThat(reads.hint()).isEqualTo(2);
        assertThat(reads.rows()).containsExactlyInAnyOrderElementsOf(before);
        Table path = reads.pathTable();
        assertThat(path.currentSnapshot().snapshotId())
                .as("the path table's snapshot")
                .isEqualTo(2);
        assertThat(IcebergReads.rows(path, null)).containsExactlyInAnyOrderElementsOf(before);

        batch.exec("INSERT INTO db.h VALUES (4, 'd')");
        List<String> after = tarn("h");
        assertThat(after).containsExactlyInAnyOrder("+I[1, a]", "+I[2, b]", "+I[4, d]");
        assertThat(reads.hint()).isEqualTo(3);
        assertThat(reads.rows()).containsExactlyInAnyOrderElementsOf(after);
        assertThat(IcebergReads.rows(reads.pathTable(), null))
                .containsExactlyInAnyOrderElementsOf(after);
    }

    @Test
    void aColumnWithoutAnIcebergTypeIsRefusedNamingItsTypeAtCreateAndAlter() throws Exception {
        assertThatThrownBy(
                        () ->
                                batch.exec(
                                        "CREATE TABLE db.nested (id INT, tags ARRAY<STRING>) WITH ("
                                                + ICEBERG
                                                + ")"))
                .hasStackTraceContaining("Cannot create table db.nested")
                .rootCause()
                .hasMessageContaining("tags ARRAY<STRING>")
                .hasMessageContaining("'metadata.iceberg.storage'");
        batch.exec("CREATE TABLE db.later (id INT, ts TIMESTAMP(9))");
        assertThatThrownBy(() -> batch.exec("ALTER TABLE db.later SET (" + ICEBERG + ")"))
                .hasStackTraceContaining("Cannot alter table db.later")
                .rootCause()
                .hasMessageContaining("ts TIMESTAMP(9)");
    }

    @Test
    void aBadStorageValueIsRefusedNamingTheOptionAndTheValue() {
        assertThatThrownBy(
                        () ->
                                batch.exec(
                                        "CREATE TABLE db.bad (id INT) WITH"
                                                + " ('metadata.iceberg.storage' = 'hive-catalog')"))
                .rootCause()
                .hasMessageContaining("'hive-catalog'")
                .hasMessageContaining("'metadata.iceberg.storage'")
                .hasMessageContaining("only in the table's directory");
        assertThatThrownBy(
                        () ->
                                batch.exec(
                                        "CREATE TABLE db.bad (id INT) WITH"
                                                + " ('metadata.iceberg.storage' = 'somewhere')"))
                .rootCause()
                .hasMessageContaining(
                        "Invalid value 'somewhere' for option 'metadata.iceberg.storage' of table"
                                + " db.bad: expected one of disabled, table-location");
    }
}
