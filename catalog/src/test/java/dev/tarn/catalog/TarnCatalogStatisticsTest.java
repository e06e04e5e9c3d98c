package dev.tarn.catalog;

import static dev.tarn.catalog.TestCatalogTables.events;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.PartitionNotExistException;
import org.apache.flink.table.catalog.stats.CatalogColumnStatistics;
import org.apache.flink.table.catalog.stats.CatalogColumnStatisticsDataLong;
import org.apache.flink.table.catalog.stats.CatalogColumnStatisticsDataString;
import org.apache.flink.table.catalog.stats.CatalogTableStatistics;
import org.apache.flink.table.expressions.CallExpression;
import org.apache.flink.table.expressions.Expression;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.apache.flink.table.expressions.ValueLiteralExpression;
import org.apache.flink.table.functions.BuiltInFunctionDefinitions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Statistics and partitions the catalog derives from the latest snapshot's manifests: table and
 * partition counts, per-column null counts and bounds, partitions by filter, and a partition drop.
 */
class TarnCatalogStatisticsTest {

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
    void tableWithoutSnapshotHasNoRows() throws Exception {
        CatalogTableStatistics stats = catalog.getTableStatistics(EVENTS);
        assertThat(stats.getRowCount()).isZero();
        assertThat(stats.getFileCount()).isZero();
        CatalogColumnStatisticsDataLong id =
                (CatalogColumnStatisticsDataLong)
                        catalog.getTableColumnStatistics(EVENTS)
                                .getColumnStatisticsData()
                                .get("id");
        assertThat(id.getNullCount()).isZero();
        assertThat(id.getMin()).isNull();
    }

    @Test
    void countsAndBoundsComeFromTheLiveFiles() throws Exception {
        TestCatalogTables.append(
                location,
                "db.events",
                1,
                new Object[] {1L, "a", "2024-01-01"},
                new Object[] {5L, null, "2024-01-01"},
                new Object[] {3L, "c", "2024-01-02"});
        TestCatalogTables.append(location, "db.events", 2, new Object[] {-2L, "d", "2024-01-02"});

        CatalogTableStatistics table = catalog.getTableStatistics(EVENTS);
        assertThat(table.getRowCount()).isEqualTo(4);
        assertThat(table.getFileCount()).isEqualTo(3); // one per partition, then one more
        assertThat(table.getTotalSize()).isPositive();

        CatalogColumnStatistics columns = catalog.getTableColumnStatistics(EVENTS);
        CatalogColumnStatisticsDataLong id =
                (CatalogColumnStatisticsDataLong) columns.getColumnStatisticsData().get("id");
        assertThat(id.getMin()).isEqualTo(-2L);
        assertThat(id.getMax()).isEqualTo(5L);
        assertThat(id.getNullCount()).isZero();
        CatalogColumnStatisticsDataString v =
                (CatalogColumnStatisticsDataString) columns.getColumnStatisticsData().get("v");
        assertThat(v.getNullCount()).isEqualTo(1);

        CatalogTableStatistics partition = catalog.getPartitionStatistics(EVENTS, dt("2024-01-02"));
        assertThat(partition.getRowCount()).isEqualTo(2);
        assertThat(partition.getFileCount()).isEqualTo(2);
        CatalogColumnStatisticsDataLong partitionId =
                (CatalogColumnStatisticsDataLong)
                        catalog.getPartitionColumnStatistics(EVENTS, dt("2024-01-02"))
                                .getColumnStatisticsData()
                                .get("id");
        assertThat(partitionId.getMin()).isEqualTo(-2L);
        assertThat(partitionId.getMax()).isEqualTo(3L);
        assertThat(catalog.getPartition(EVENTS, dt("2024-01-01")).getProperties())
                .containsEntry("numRows", "2")
                .containsEntry("numFiles", "1");
        assertThatThrownBy(() -> catalog.getPartitionStatistics(EVENTS, dt("2030-01-01")))
                .isInstanceOf(PartitionNotExistException.class)
                .hasMessageContaining("dt=2030-01-01")
                .hasMessageContaining("db.events");
    }

    @Test
    void storedStatisticsAreRefused() {
        assertThatThrownBy(
                        () ->
                                catalog.alterTableStatistics(
                                        EVENTS, new CatalogTableStatistics(1, 1, 1, 1), false))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("Cannot store statistics of table db.events")
                .hasMessageContaining("computes them from the latest snapshot's manifests");
    }

    @Test
    void partitionsByFilterAreSelectedByTheirValues() throws Exception {
        TestCatalogTables.append(
                location,
                "db.events",
                1,
                new Object[] {1L, "a", "2024-01-01"},
                new Object[] {2L, "b", "2024-01-02"},
                new Object[] {3L, "c", "2024-01-03"});
        FieldReferenceExpression dt = new FieldReferenceExpression("dt", DataTypes.STRING(), 0, 0);
        Expression after =
                CallExpression.permanent(
                        BuiltInFunctionDefinitions.GREATER_THAN,
                        List.of(dt, new ValueLiteralExpression("2024-01-01")),
                        DataTypes.BOOLEAN());
        Expression notThird =
                CallExpression.permanent(
                        BuiltInFunctionDefinitions.NOT_EQUALS,
                        List.of(dt, new ValueLiteralExpression("2024-01-03")),
                        DataTypes.BOOLEAN());
        assertThat(catalog.listPartitionsByFilter(EVENTS, List.of(after, notThird)))
                .containsExactly(dt("2024-01-02"));
        CallExpression upper =
                CallExpression.permanent(
                        BuiltInFunctionDefinitions.UPPER, List.of(dt), DataTypes.STRING());
        Expression byFunction =
                CallExpression.permanent(
                        BuiltInFunctionDefinitions.EQUALS,
                        List.<org.apache.flink.table.expressions.ResolvedExpression>of(
                                upper, new ValueLiteralExpression("X")),
                        DataTypes.BOOLEAN());
        assertThatThrownBy(() -> catalog.listPartitionsByFilter(EVENTS, List.of(byFunction)))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("cannot select partitions of table db.events by");
    }

    @Test
    void droppingAPartitionDeletesItsFilesInOneOverwriteSnapshot() throws Exception {
        TestCatalogTables.append(
                location,
                "db.events",
                1,
                new Object[] {1L, "a", "2024-01-01"},
                new Object[] {2L, "b", "2024-01-02"});
        catalog.dropPartition(EVENTS, dt("2024-01-01"), false);

        assertThat(catalog.listPartitions(EVENTS)).containsExactly(dt("2024-01-02"));
        dev.tarn.format.Table table = catalog.loadTable(EVENTS);
        dev.tarn.format.snapshot.Snapshot latest = table.metadata().latestSnapshot().orElseThrow();
        assertThat(latest.id()).isEqualTo(2);
        assertThat(latest.commit().kind())
                .isEqualTo(dev.tarn.format.snapshot.Snapshot.CommitKind.OVERWRITE);
        assertThat(catalog.getTableStatistics(EVENTS).getRowCount()).isEqualTo(1);

        catalog.dropPartition(EVENTS, dt("2024-01-01"), true);
        assertThat(table.metadata().latestSnapshot().orElseThrow().id()).isEqualTo(2);
        assertThatThrownBy(() -> catalog.dropPartition(EVENTS, dt("2024-01-01"), false))
                .isInstanceOf(PartitionNotExistException.class)
                .hasMessage(
                        "Partition CatalogPartitionSpec{{dt=2024-01-01}} of table db.events in"
                                + " catalog lake does not exist.");
    }
}
