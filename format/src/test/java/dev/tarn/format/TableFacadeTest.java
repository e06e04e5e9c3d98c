package dev.tarn.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.io.FileIO;
import dev.tarn.format.snapshot.Snapshot;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the façade hands its callers: the metadata view, maintenance, consumers, stream scans. */
class TableFacadeTest {

    @TempDir Path dir;

    private org.apache.flink.core.fs.Path location() {
        return new org.apache.flink.core.fs.Path(dir.toUri());
    }

    private Table table() {
        Table table =
                TestTables.create(
                        FileIO.flinkFileSystems(),
                        location(),
                        TestTables.ID_V,
                        List.of(),
                        Map.of());
        for (long i = 1; i <= 3; i++) {
            TestTables.append(table, i, List.of(TestTables.row(i, "v" + i)));
        }
        return table;
    }

    @Test
    void existsOnlyWhereASchemaIs() {
        assertThat(Table.exists(FileIO.flinkFileSystems(), location(), "db.t")).isFalse();
        table();
        assertThat(Table.exists(FileIO.flinkFileSystems(), location(), "db.t")).isTrue();
    }

    @Test
    void metadataListsTheSnapshotsStillThere() {
        Table table = table();
        TableMetadata metadata = table.metadata();
        assertThat(metadata.latestSnapshotId()).hasValue(3);
        assertThat(metadata.snapshots()).extracting(Snapshot::id).containsExactly(1L, 2L, 3L);
        assertThat(metadata.snapshotAtOrBefore(metadata.snapshot(2).commit().timeMillis()).id())
                .isGreaterThanOrEqualTo(2);
        assertThatThrownBy(() -> metadata.snapshotAtOrBefore(0))
                .hasMessageStartingWith("Table db.t has no snapshot at or before");

        table.maintenance().createTag("eod", OptionalLong.of(2), null, 1000);
        assertThat(metadata.tags()).extracting(t -> t.snapshot().id()).containsExactly(2L);
        table.maintenance().rollbackToTag("eod");
        assertThat(metadata.snapshots()).extracting(Snapshot::id).containsExactly(1L, 2L);
        assertThat(metadata.files().liveFiles(metadata.latestSnapshot().orElseThrow())).hasSize(2);
    }

    @Test
    void metadataListsEverySchemaWithItsWriteTime() {
        Table table = table();
        List<TableMetadata.StoredSchema> schemas = table.metadata().schemas();
        assertThat(schemas).extracting(s -> s.schema().id()).containsExactly(0L);
        assertThat(schemas.get(0).writtenMillis()).isPositive();
        assertThat(table.metadata().schema(0)).isEqualTo(table.schema());
    }

    @Test
    void consumersAndStreamScansComeFromTheFacade() throws Exception {
        Table table = table();
        table.consumers().record("job", 2, 1000);
        assertThat(table.consumers().all()).extracting(c -> c.nextSnapshotId()).containsExactly(2L);
        assertThat(
                        table.withDynamicOptions(Map.of("scan.snapshot-id", "2"))
                                .newStreamScan(null)
                                .start()
                                .nextSnapshotId())
                .isEqualTo(2);
    }
}
