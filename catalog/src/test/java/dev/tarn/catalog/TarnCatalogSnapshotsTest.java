package dev.tarn.catalog;

import static dev.tarn.catalog.TestCatalogTables.events;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.PartitionNotExistException;
import org.apache.flink.table.catalog.exceptions.PartitionSpecInvalidException;
import org.apache.flink.table.catalog.exceptions.TableNotPartitionedException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the catalog reads from a table's snapshots: partitions and time travel. */
class TarnCatalogSnapshotsTest {

    private static final ObjectPath EVENTS = new ObjectPath("db", "events");

    @TempDir java.nio.file.Path lake;
    private TarnCatalog catalog;
    private Path location;

    @BeforeEach
    void createTable() throws Exception {
        catalog = new TarnCatalog("lake", new Path(lake.toUri()), "db");
        catalog.open();
        catalog.createTable(EVENTS, events(Map.of()), false);
        location = new Path(lake.resolve("db.db/events").toUri());
    }

    private static CatalogPartitionSpec dt(String value) {
        return new CatalogPartitionSpec(Map.of("dt", value));
    }

    @Test
    void partitionsAreThoseWithDataInTheLatestSnapshot() throws Exception {
        assertThat(catalog.listPartitions(EVENTS)).isEmpty();
        TestCatalogTables.append(
                location,
                "db.events",
                1,
                new Object[] {1L, "a", "2024-01-01"},
                new Object[] {2L, "b", "2024-01-02"},
                new Object[] {3L, "c", null});

        assertThat(catalog.listPartitions(EVENTS))
                .containsExactlyInAnyOrder(dt("2024-01-01"), dt("2024-01-02"), dt("\\N"));
        assertThat(catalog.listPartitions(EVENTS, dt("2024-01-02")))
                .containsExactly(dt("2024-01-02"));
        assertThat(catalog.partitionExists(EVENTS, dt("2024-01-01"))).isTrue();
        assertThat(catalog.partitionExists(EVENTS, dt("2030-01-01"))).isFalse();
        assertThat(catalog.getPartition(EVENTS, dt("2024-01-01")).getProperties())
                .containsEntry("numRows", "1");
        assertThatThrownBy(() -> catalog.getPartition(EVENTS, dt("2030-01-01")))
                .isInstanceOf(PartitionNotExistException.class)
                .hasMessage(
                        "Partition CatalogPartitionSpec{{dt=2030-01-01}} of table db.events in"
                                + " catalog lake does not exist.");
        assertThatThrownBy(
                        () ->
                                catalog.listPartitions(
                                        EVENTS, new CatalogPartitionSpec(Map.of("v", "a"))))
                .isInstanceOf(PartitionSpecInvalidException.class)
                .hasMessage(
                        "PartitionSpec CatalogPartitionSpec{{v=a}} does not match partition keys"
                                + " [dt] of table db.events in catalog lake.");
        assertThatThrownBy(() -> catalog.createPartition(EVENTS, dt("2024-01-05"), null, false))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("Cannot add partition {dt=2024-01-05} of table db.events")
                .hasMessageContaining("partitions follow its data");
    }

    @Test
    void unpartitionedTableHasNoPartitions() throws Exception {
        ObjectPath plain = new ObjectPath("db", "plain");
        catalog.createTable(
                plain,
                TestCatalogTables.table(
                        ResolvedSchema.of(Column.physical("id", DataTypes.BIGINT())),
                        List.of(),
                        Map.of(),
                        null),
                false);
        assertThatThrownBy(() -> catalog.listPartitions(plain))
                .isInstanceOf(TableNotPartitionedException.class)
                .hasMessageContaining("db.plain");
    }

    @Test
    void timeTravelAddsTheTimestampOrNamesTheMissingSnapshot() throws Exception {
        long beforeAnySnapshot = System.currentTimeMillis() - 1;
        assertThatThrownBy(() -> catalog.getTable(EVENTS, beforeAnySnapshot))
                .isInstanceOf(CatalogException.class)
                .hasMessage(
                        "Table db.events has no snapshot at or before "
                                + java.time.Instant.ofEpochMilli(beforeAnySnapshot)
                                + " ("
                                + beforeAnySnapshot
                                + "): it has none yet");

        TestCatalogTables.append(location, "db.events", 1, new Object[] {1L, "a", "d"});
        long now = System.currentTimeMillis();
        CatalogTable asOf = (CatalogTable) catalog.getTable(EVENTS, now);
        assertThat(asOf.getOptions())
                .containsEntry("scan.timestamp-millis", String.valueOf(now))
                .containsKey("path");
        assertThatThrownBy(() -> catalog.getTable(EVENTS, beforeAnySnapshot))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("no snapshot at or before");
    }
}
