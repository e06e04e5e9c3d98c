package dev.tarn.catalog;

import static dev.tarn.catalog.TestCatalogTables.events;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** File-system failures and corrupt metadata surface as catalog errors naming the object. */
class TarnCatalogFailureTest {

    private static final ObjectPath EVENTS = new ObjectPath("db", "events");

    @TempDir java.nio.file.Path lake;
    private final FailingFileIO io = new FailingFileIO();
    private TarnCatalog catalog;

    @BeforeEach
    void createTable() throws Exception {
        catalog = new TarnCatalog("lake", new Path(lake.toUri()), "db", io);
        catalog.open();
        catalog.createTable(EVENTS, events(Map.of()), false);
    }

    @Test
    void failedDropNamesTheTableAndKeepsIt() {
        io.failing = true;
        assertThatThrownBy(() -> catalog.dropTable(EVENTS, false))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("Cannot drop table db.events in catalog lake")
                .hasMessageContaining("injected failure");
        io.failing = false;
        assertThat(catalog.tableExists(EVENTS)).isTrue();
    }

    @Test
    void failedRenameNamesBothTables() throws Exception {
        io.failing = true;
        assertThatThrownBy(() -> catalog.renameTable(EVENTS, "clicks", false))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("Cannot rename table db.events to db.clicks")
                .hasMessageContaining("injected failure");
        io.failing = false;
        assertThat(catalog.listTables("db")).containsExactly("events");
    }

    @Test
    void renameOntoAForeignDirectoryNamesIt() throws Exception {
        Files.createDirectories(lake.resolve("db.db/clicks/junk"));
        assertThatThrownBy(() -> catalog.renameTable(EVENTS, "clicks", false))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("Cannot rename table db.events to db.clicks")
                .hasMessageContaining("holds no table");
        assertThat(catalog.tableExists(EVENTS)).isTrue();
    }

    @Test
    void corruptSchemaFileIsACatalogError() throws Exception {
        Files.writeString(lake.resolve("db.db/events/schema/schema-0"), "{ not json");
        assertThatThrownBy(() -> catalog.getTable(EVENTS))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("Corrupt schema file")
                .hasMessageContaining("schema-0");
    }
}
