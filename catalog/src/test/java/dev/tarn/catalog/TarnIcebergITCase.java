package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.iceberg.IcebergFileIO;
import dev.tarn.format.io.FileIO;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
