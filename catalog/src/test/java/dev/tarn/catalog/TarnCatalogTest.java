package dev.tarn.catalog;

import static dev.tarn.catalog.TestCatalogTables.events;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.catalog.CatalogDatabaseImpl;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotEmptyException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.TableAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.expressions.SqlCallExpression;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Databases and tables through the catalog API on a temporary warehouse, without a cluster. */
class TarnCatalogTest {

    private static final ObjectPath EVENTS = new ObjectPath("db", "events");

    @TempDir java.nio.file.Path dir;
    private java.nio.file.Path lake;
    private TarnCatalog catalog;

    @BeforeEach
    void open() throws Exception {
        lake = dir.resolve("lake");
        catalog = newCatalog();
        catalog.createDatabase("db", new CatalogDatabaseImpl(Map.of(), null), false);
    }

    private TarnCatalog newCatalog() {
        TarnCatalog c = new TarnCatalog("lake", new Path(lake.toUri()), "default");
        c.open();
        return c;
    }

    @Test
    void openCreatesWarehouseAndDefaultDatabase() {
        assertThat(lake.resolve("default.db")).isDirectory();
        assertThat(catalog.listDatabases()).containsExactly("db", "default");
        assertThat(catalog.databaseExists("default")).isTrue();
    }

    @Test
    void databasesAreCreatedListedAndDropped() throws Exception {
        catalog.createDatabase("analytics", new CatalogDatabaseImpl(Map.of(), "ignored"), false);
        assertThat(lake.resolve("analytics.db")).isDirectory();
        assertThat(newCatalog().listDatabases()).containsExactly("analytics", "db", "default");
        assertThat(catalog.getDatabase("analytics").getProperties()).isEmpty();

        catalog.createDatabase("analytics", new CatalogDatabaseImpl(Map.of(), null), true);
        assertThatThrownBy(
                        () ->
                                catalog.createDatabase(
                                        "analytics",
                                        new CatalogDatabaseImpl(Map.of(), null),
                                        false))
                .isInstanceOf(DatabaseAlreadyExistException.class)
                .hasMessageContaining("analytics")
                .hasMessageContaining("lake");

        catalog.dropDatabase("analytics", false, false);
        assertThat(catalog.databaseExists("analytics")).isFalse();
        assertThat(lake.resolve("analytics.db")).doesNotExist();
        catalog.dropDatabase("analytics", true, false);
        assertThatThrownBy(() -> catalog.dropDatabase("analytics", false, false))
                .isInstanceOf(DatabaseNotExistException.class)
                .hasMessageContaining("analytics");
        assertThatThrownBy(() -> catalog.getDatabase("analytics"))
                .isInstanceOf(DatabaseNotExistException.class)
                .hasMessageContaining("analytics");
    }

    @Test
    void databasePropertiesAndAlterationsAreRefused() {
        assertThatThrownBy(
                        () ->
                                catalog.createDatabase(
                                        "props",
                                        new CatalogDatabaseImpl(Map.of("owner", "me"), null),
                                        false))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("database props")
                .hasMessageContaining("owner=me");
        assertThat(catalog.databaseExists("props")).isFalse();
        assertThatThrownBy(
                        () ->
                                catalog.alterDatabase(
                                        "db", new CatalogDatabaseImpl(Map.of(), "x"), false))
                .isInstanceOf(CatalogException.class)
                .hasMessage(
                        "Cannot alter database db in catalog lake: a Tarn database has no"
                                + " properties to change");
    }

    @Test
    void nonEmptyDatabaseIsDroppedOnlyWithCascade() throws Exception {
        catalog.createTable(EVENTS, events(Map.of()), false);
        assertThatThrownBy(() -> catalog.dropDatabase("db", false, false))
                .isInstanceOf(DatabaseNotEmptyException.class)
                .hasMessageContaining("db");
        assertThat(catalog.tableExists(EVENTS)).isTrue();

        catalog.dropDatabase("db", false, true);
        assertThat(lake.resolve("db.db")).doesNotExist();
    }

    @Test
    void namesThatAreNotOnePathSegmentAreRejected() {
        assertThatThrownBy(
                        () ->
                                catalog.createDatabase(
                                        "../escape",
                                        new CatalogDatabaseImpl(Map.of(), null),
                                        false))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("Invalid database name '../escape'");
        assertThatThrownBy(
                        () ->
                                catalog.createTable(
                                        new ObjectPath("db", "a/b"), events(Map.of()), false))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("Invalid table name 'a/b'");
    }

    @Test
    void createdTableIsPersistedAndVisibleToANewCatalog() throws Exception {
        catalog.createTable(EVENTS, events(Map.of("bucket", "4", "bucket-key", "id")), false);

        String schemaFile =
                Files.readString(
                        lake.resolve("db.db/events/schema/schema-0"), StandardCharsets.UTF_8);
        assertThat(schemaFile).contains("\"bucket\" : \"4\"").doesNotContain("path");

        CatalogTable table = (CatalogTable) newCatalog().getTable(EVENTS);
        assertThat(table.getPartitionKeys()).containsExactly("dt");
        assertThat(table.getComment()).isEqualTo("click events");
        assertThat(table.getOptions())
                .containsEntry("bucket", "4")
                .containsEntry("bucket-key", "id")
                .containsEntry("path", "file:" + lake.resolve("db.db/events"))
                .hasSize(3);
        Schema schema = table.getUnresolvedSchema();
        assertThat(schema.getColumns())
                .extracting(Schema.UnresolvedColumn::getName)
                .containsExactly("id", "v", "dt");
        assertThat(((Schema.UnresolvedPhysicalColumn) schema.getColumns().get(0)).getDataType())
                .isEqualTo(DataTypes.BIGINT());
        assertThat(schema.getColumns().get(1).getComment()).contains("the value");
        assertThat(schema.getPrimaryKey()).isEmpty();
        assertThat(catalog.listTables("db")).containsExactly("events");
    }

    @Test
    void pathOptionIsTheLocationUri() throws Exception {
        catalog.createTable(EVENTS, events(Map.of()), false);
        String path = ((CatalogTable) catalog.getTable(EVENTS)).getOptions().get("path");
        assertThat(path).startsWith("file:/").endsWith("/lake/db.db/events");
    }

    @Test
    void existingTableIsKeptOrReported() throws Exception {
        catalog.createTable(EVENTS, events(Map.of("bucket", "2", "bucket-key", "id")), false);
        catalog.createTable(EVENTS, events(Map.of()), true);
        assertThat(((CatalogTable) catalog.getTable(EVENTS)).getOptions())
                .containsEntry("bucket", "2");
        assertThatThrownBy(() -> catalog.createTable(EVENTS, events(Map.of()), false))
                .isInstanceOf(TableAlreadyExistException.class)
                .hasMessageContaining("db.events")
                .hasMessageContaining("lake");
        assertThatThrownBy(
                        () ->
                                catalog.createTable(
                                        new ObjectPath("nodb", "t"), events(Map.of()), false))
                .isInstanceOf(DatabaseNotExistException.class)
                .hasMessageContaining("nodb");
    }

    @Test
    void unknownOrInvalidTableOptionsAreRejectedAtCreate() {
        assertThatThrownBy(() -> catalog.createTable(EVENTS, events(Map.of("bukket", "4")), false))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("'bukket'")
                .hasMessageContaining("db.events");
        assertThatThrownBy(() -> catalog.createTable(EVENTS, events(Map.of("bucket", "0")), false))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("Invalid option 'bucket' of table db.events: 0")
                .hasMessageContaining("positive number of buckets");
        assertThatThrownBy(
                        () ->
                                catalog.createTable(
                                        EVENTS, events(Map.of("scan.snapshot-id", "1")), false))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining(
                        "Option 'scan.snapshot-id' of table db.events applies to one query");
        assertThat(catalog.tableExists(EVENTS)).isFalse();
        assertThat(lake.resolve("db.db/events")).doesNotExist();
    }

    @Test
    void connectorAndPathAreNeverStored() throws Exception {
        catalog.createTable(EVENTS, events(Map.of("connector", "tarn")), false);
        assertThat(Files.readString(lake.resolve("db.db/events/schema/schema-0")))
                .doesNotContain("connector");
        ObjectPath other = new ObjectPath("db", "other");
        assertThatThrownBy(
                        () ->
                                catalog.createTable(
                                        other, events(Map.of("connector", "datagen")), false))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("'connector' = 'datagen'")
                .hasMessageContaining("db.other");
        // A given path is ignored, as Apache Paimon ignores it: the catalog places the table.
        catalog.createTable(other, events(Map.of("path", "file:/x")), false);
        assertThat(Files.readString(lake.resolve("db.db/other/schema/schema-0")))
                .doesNotContain("file:/x");
        assertThat(((CatalogTable) catalog.getTable(other)).getOptions().get("path"))
                .endsWith("/lake/db.db/other");
    }

    @Test
    void metadataColumnsAreRejected() {
        Column metadata = Column.metadata("id2", DataTypes.BIGINT(), null, false);
        ResolvedSchema withComputed =
                ResolvedSchema.of(Column.physical("id", DataTypes.BIGINT()), metadata);
        assertThatThrownBy(
                        () ->
                                catalog.createTable(
                                        EVENTS,
                                        TestCatalogTables.table(
                                                withComputed, List.of(), Map.of(), null),
                                        false))
                .isInstanceOf(CatalogException.class)
                .hasMessage(
                        "Cannot create table db.events: column `id2` BIGINT METADATA is not"
                                + " supported; a Tarn table has physical and computed columns"
                                + " only, without metadata definitions");
        assertThat(catalog.tableExists(EVENTS)).isFalse();
    }

    @Test
    void aWatermarkIsStoredAndReturned() throws Exception {
        Column ts = Column.physical("ts", DataTypes.TIMESTAMP(3));
        catalog.createTable(EVENTS, TestCatalogTables.withWatermark(ts), false);

        assertThat(
                        Files.readString(
                                lake.resolve("db.db/events/schema/schema-0"),
                                StandardCharsets.UTF_8))
                .contains("\"watermark\" : {")
                .contains("\"rowtime\" : \"ts\"")
                .contains("\"expression\" : \"`ts`\"");
        Schema schema = ((CatalogTable) newCatalog().getTable(EVENTS)).getUnresolvedSchema();
        assertThat(schema.getWatermarkSpecs()).hasSize(1);
        Schema.UnresolvedWatermarkSpec spec = schema.getWatermarkSpecs().get(0);
        assertThat(spec.getColumnName()).isEqualTo("ts");
        assertThat(spec.getWatermarkExpression())
                .isInstanceOfSatisfying(
                        SqlCallExpression.class,
                        e -> assertThat(e.getSqlExpression()).isEqualTo("`ts`"));
    }

    @Test
    void listTablesSkipsDirectoriesWithoutSchema() throws Exception {
        catalog.createTable(EVENTS, events(Map.of()), false);
        Files.createDirectories(lake.resolve("db.db/leftover/snapshot"));
        assertThat(catalog.listTables("db")).containsExactly("events");
        assertThat(catalog.tableExists(new ObjectPath("db", "leftover"))).isFalse();
        assertThat(catalog.listViews("db")).isEmpty();
        assertThatThrownBy(() -> catalog.listTables("nodb"))
                .isInstanceOf(DatabaseNotExistException.class)
                .hasMessageContaining("nodb");
    }

    @Test
    void droppedTableLosesItsDirectory() throws Exception {
        catalog.createTable(EVENTS, events(Map.of()), false);
        catalog.dropTable(EVENTS, false);
        assertThat(lake.resolve("db.db/events")).doesNotExist();
        assertThat(catalog.listTables("db")).isEmpty();
        catalog.dropTable(EVENTS, true);
        assertThatThrownBy(() -> catalog.dropTable(EVENTS, false))
                .isInstanceOf(TableNotExistException.class)
                .hasMessageContaining("db.events");
        assertThatThrownBy(() -> catalog.getTable(EVENTS))
                .isInstanceOf(TableNotExistException.class)
                .hasMessageContaining("db.events");
    }

    @Test
    void renamedTableMovesWithItsData() throws Exception {
        catalog.createTable(EVENTS, events(Map.of("bucket", "2", "bucket-key", "id")), false);
        TestCatalogTables.append(
                new Path(lake.resolve("db.db/events").toUri()),
                "db.events",
                1,
                new Object[] {1L, "a", "d1"});
        catalog.renameTable(EVENTS, "clicks", false);

        ObjectPath clicks = new ObjectPath("db", "clicks");
        assertThat(catalog.listTables("db")).containsExactly("clicks");
        assertThat(((CatalogTable) catalog.getTable(clicks)).getOptions())
                .containsEntry("bucket", "2")
                .containsEntry("path", "file:" + lake.resolve("db.db/clicks"));
        assertThat(catalog.listPartitions(clicks)).hasSize(1);

        catalog.renameTable(EVENTS, "x", true);
        assertThatThrownBy(() -> catalog.renameTable(EVENTS, "x", false))
                .isInstanceOf(TableNotExistException.class)
                .hasMessageContaining("db.events");
        catalog.createTable(EVENTS, events(Map.of()), false);
        assertThatThrownBy(() -> catalog.renameTable(EVENTS, "clicks", false))
                .isInstanceOf(TableAlreadyExistException.class)
                .hasMessageContaining("db.clicks");
    }

    @Test
    void functionsAndStatisticsAreNotStored() throws Exception {
        assertThat(catalog.listFunctions("db")).isEmpty();
        assertThat(catalog.functionExists(new ObjectPath("db", "f"))).isFalse();
        assertThatThrownBy(
                        () ->
                                catalog.createFunction(
                                        new ObjectPath("db", "f"),
                                        new org.apache.flink.table.catalog.CatalogFunctionImpl(
                                                "com.example.F"),
                                        false))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("Cannot create function db.f")
                .hasMessageContaining("TEMPORARY");
        catalog.createTable(EVENTS, events(Map.of()), false);
        // Computed from the (empty) latest snapshot rather than stored.
        assertThat(catalog.getTableStatistics(EVENTS).getRowCount()).isZero();
    }
}
