package dev.tarn.catalog;

import static dev.tarn.catalog.TestCatalogTables.events;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.factories.FactoryUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commit lock as catalog options: checked when the catalog is created, and taken by every
 * commit to the catalog's tables, here an ALTER TABLE against a lock database that is not there.
 */
class CatalogCommitLockTest {

    private static final ObjectPath EVENTS = new ObjectPath("db", "events");

    @TempDir java.nio.file.Path lake;

    private TarnCatalog create(Map<String, String> options) {
        Map<String, String> all = new HashMap<>(options);
        all.put("type", "tarn");
        all.put("warehouse", lake.toUri().toString());
        all.put("default-database", "db");
        return (TarnCatalog)
                FactoryUtil.createCatalog(
                        "lake", all, new Configuration(), getClass().getClassLoader());
    }

    private static String stackTrace(Throwable e) {
        java.io.StringWriter out = new java.io.StringWriter();
        e.printStackTrace(new java.io.PrintWriter(out));
        return out.toString();
    }

    @Test
    void unknownLockIsRefusedNamingCatalogOptionAndValue() {
        assertThatThrownBy(() -> create(Map.of("commit.lock", "zookeeper")))
                .rootCause()
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Invalid value 'zookeeper' for option 'commit.lock' of catalog lake:"
                                + " expected one of none, jdbc");
    }

    @Test
    void jdbcLockWithoutUrlIsRefused() {
        assertThatThrownBy(() -> create(Map.of("commit.lock", "jdbc")))
                .isInstanceOf(ValidationException.class)
                .rootCause()
                .hasMessage(
                        "Option 'commit.lock.jdbc.url' of catalog lake is required with"
                                + " 'commit.lock' = 'jdbc'");
    }

    @Test
    void theCatalogsLockIsTakenByCommitsToItsTables() throws Exception {
        TarnCatalog catalog =
                create(
                        Map.of(
                                "commit.lock", "jdbc",
                                "commit.lock.jdbc.url", "jdbc:postgresql://127.0.0.1:1/tarn",
                                "commit.lock.jdbc.user", "tarn",
                                "commit.lock.jdbc.password", "s3cret"));
        catalog.open();
        catalog.createTable(EVENTS, events(Map.of()), false);
        Map<String, String> options =
                new HashMap<>(((CatalogTable) catalog.getTable(EVENTS)).getOptions());
        assertThat(options).doesNotContainKeys("commit.lock", "commit.lock.jdbc.password");
        options.put("target-file-size", "64mb");

        assertThatThrownBy(
                        () ->
                                catalog.alterTable(
                                        EVENTS,
                                        TestCatalogTables.resolve(
                                                catalog.getTable(EVENTS), options),
                                        false))
                .isInstanceOf(CatalogException.class)
                .hasMessage("Cannot write schema 1 of table db.events")
                .hasStackTraceContaining(
                        "Cannot take the commit lock of table db.events in"
                                + " jdbc:postgresql://127.0.0.1:1/tarn: cannot connect as user"
                                + " 'tarn': Connection to 127.0.0.1:1 refused")
                .satisfies(e -> assertThat(stackTrace(e)).doesNotContain("s3cret"));
        assertThat(lake.resolve("db.db/events/schema/schema-1")).doesNotExist();
    }
}
