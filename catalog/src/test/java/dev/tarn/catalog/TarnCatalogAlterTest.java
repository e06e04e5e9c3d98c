package dev.tarn.catalog;

import static dev.tarn.catalog.TestCatalogTables.events;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.TableChange;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ALTER TABLE through the catalog API: options become new schema versions, shapes stay. */
class TarnCatalogAlterTest {

    private static final ObjectPath EVENTS = new ObjectPath("db", "events");

    @TempDir java.nio.file.Path lake;
    private TarnCatalog catalog;
    private java.nio.file.Path schemaDir;

    @BeforeEach
    void createTable() throws Exception {
        catalog = new TarnCatalog("lake", new Path(lake.toUri()), "db");
        catalog.open();
        catalog.createTable(EVENTS, events(Map.of("bucket", "4", "bucket-key", "id")), false);
        schemaDir = lake.resolve("db.db/events/schema");
    }

    /** The options of the table as Flink would pass them back, with {@code change} applied. */
    private Map<String, String> optionsWith(Map<String, String> set, String... reset)
            throws Exception {
        Map<String, String> options =
                new HashMap<>(((CatalogTable) catalog.getTable(EVENTS)).getOptions());
        options.putAll(set);
        for (String key : reset) {
            options.remove(key);
        }
        return options;
    }

    private void alter(Map<String, String> options) throws Exception {
        catalog.alterTable(
                EVENTS, TestCatalogTables.resolve(catalog.getTable(EVENTS), options), false);
    }

    @Test
    void setAndResetWriteNewSchemaVersions() throws Exception {
        alter(optionsWith(Map.of("target-file-size", "64mb")));
        assertThat(Files.readString(schemaDir.resolve("schema-1")))
                .contains("\"target-file-size\" : \"64mb\"")
                .contains("\"bucket\" : \"4\"")
                .doesNotContain("path");

        alter(optionsWith(Map.of(), "target-file-size"));
        assertThat(Files.readString(schemaDir.resolve("schema-2")))
                .doesNotContain("target-file-size");

        TarnCatalog reopened = new TarnCatalog("lake", new Path(lake.toUri()), "db");
        reopened.open();
        assertThat(((CatalogTable) reopened.getTable(EVENTS)).getOptions())
                .doesNotContainKey("target-file-size")
                .containsEntry("bucket", "4");
    }

    @Test
    void unchangedOptionsWriteNoSchema() throws Exception {
        alter(optionsWith(Map.of()));
        assertThat(schemaDir.resolve("schema-1")).doesNotExist();
    }

    @Test
    void unknownOptionIsRejectedByName() throws Exception {
        Map<String, String> options = optionsWith(Map.of("target-file-sise", "64mb"));
        assertThatThrownBy(() -> alter(options))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("'target-file-sise'")
                .hasMessageContaining("db.events");
        assertThat(schemaDir.resolve("schema-1")).doesNotExist();
    }

    @Test
    void queryOnlyAndForeignOptionsAreRejected() throws Exception {
        Map<String, String> timeTravel = optionsWith(Map.of("scan.snapshot-id", "1"));
        assertThatThrownBy(() -> alter(timeTravel))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("'scan.snapshot-id'")
                .hasMessageContaining("hint");
        Map<String, String> elsewhere = optionsWith(Map.of("path", "file:/elsewhere"));
        assertThatThrownBy(() -> alter(elsewhere))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("'path' = 'file:/elsewhere'");
    }

    @Test
    void columnsChangeOnlyThroughPhysicalColumnChanges() throws Exception {
        List<Column> columns =
                List.of(
                        Column.physical("id", DataTypes.BIGINT()),
                        Column.physical("v", DataTypes.STRING()).withComment("the value"),
                        Column.physical("dt", DataTypes.STRING()),
                        Column.physical("extra", DataTypes.INT()));
        assertThatThrownBy(
                        () ->
                                catalog.alterTable(
                                        EVENTS,
                                        TestCatalogTables.table(
                                                ResolvedSchema.of(columns),
                                                List.of("dt"),
                                                optionsWith(Map.of()),
                                                null),
                                        false))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("Cannot alter table db.events")
                .hasMessageContaining("not supported yet")
                .hasMessageContaining("extra");
        assertThatThrownBy(
                        () ->
                                catalog.alterTable(
                                        EVENTS,
                                        catalog.getTable(EVENTS),
                                        List.of(
                                                TableChange.add(
                                                        Column.metadata(
                                                                "extra",
                                                                DataTypes.INT(),
                                                                null,
                                                                false))),
                                        false))
                .isInstanceOf(CatalogException.class)
                .hasMessage(
                        "Cannot alter table db.events: column extra is `extra` INT METADATA; only"
                                + " physical columns are supported");
        assertThat(schemaDir.resolve("schema-1")).doesNotExist();
    }

    @Test
    void bucketsChangeOnlyBeforeTheFirstSnapshot() throws Exception {
        alter(optionsWith(Map.of("bucket", "8")));
        assertThat(Files.readString(schemaDir.resolve("schema-1"))).contains("\"bucket\" : \"8\"");

        TestCatalogTables.append(
                new Path(lake.resolve("db.db/events").toUri()),
                "db.events",
                1,
                new Object[] {1L, "a", "d1"});
        Map<String, String> rescale = optionsWith(Map.of("bucket", "16"));
        assertThatThrownBy(() -> alter(rescale))
                .isInstanceOf(CatalogException.class)
                .hasMessage(
                        "Cannot alter table db.events: option 'bucket' is fixed once the table has"
                                + " data (it is at snapshot 1): the table has '8', ALTER TABLE"
                                + " gives '16'. Create a new table to change it.");
        Map<String, String> rekey = optionsWith(Map.of("bucket-key", "v"));
        assertThatThrownBy(() -> alter(rekey))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("the table has 'id', ALTER TABLE gives 'v'");
        alter(optionsWith(Map.of("target-file-size", "64mb")));
        assertThat(schemaDir.resolve("schema-2")).exists();
    }

    @Test
    void missingTableIsReportedOrIgnored() throws Exception {
        ObjectPath missing = new ObjectPath("db", "missing");
        CatalogTable table = (CatalogTable) catalog.getTable(EVENTS);
        catalog.alterTable(missing, table, true);
        assertThatThrownBy(() -> catalog.alterTable(missing, table, false))
                .isInstanceOf(TableNotExistException.class)
                .hasMessageContaining("db.missing");
    }
}
