package dev.tarn.engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.testing.SparkIcebergReader;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Spark reader reads Iceberg tables that Spark itself wrote, format version 2 with position
 * delete files and version 3 with deletion vectors, as path tables: the way it reads Tarn's. Each
 * {@link SparkIcebergReader#run} starts a Spark JVM (some seconds).
 */
class SparkIcebergReaderTest {

    @TempDir Path warehouse;

    @Test
    void readsTablesSparkWroteWithPositionDeletesAndDeletionVectors() {
        SparkIcebergReader writer = new SparkIcebergReader().warehouse(warehouse);
        for (int version : new int[] {2, 3}) {
            String table = "local.db.v" + version;
            writer.sql(
                            "CREATE TABLE "
                                    + table
                                    + " (id BIGINT, name STRING, dt STRING) USING iceberg"
                                    + " PARTITIONED BY (dt) TBLPROPERTIES ('format-version' = '"
                                    + version
                                    + "', 'write.delete.mode' = 'merge-on-read')")
                    .sql(
                            "INSERT INTO "
                                    + table
                                    + " VALUES (1, 'a', 'x'), (2, 'b', 'x'), (3, NULL, 'y')")
                    .sql("DELETE FROM " + table + " WHERE id = 2")
                    .query("SELECT content, file_format FROM " + table + ".delete_files");
        }
        List<List<String>> deletes = writer.run();
        // Version 2 deletes by a position delete file, version 3 by a deletion vector (Puffin).
        assertThat(deletes.get(0)).containsExactly("[1, PARQUET]");
        assertThat(deletes.get(1)).containsExactly("[1, PUFFIN]");

        SparkIcebergReader reader = new SparkIcebergReader();
        List<List<String>> read =
                reader.view("v2", warehouse.resolve("db/v2").toString())
                        .view("v3", warehouse.resolve("db/v3").toUri().toString())
                        .query("SELECT * FROM v2")
                        .query("SELECT id, name FROM v3 WHERE dt = 'y' OR id < 3")
                        .run();
        assertThat(read.get(0)).containsExactly("[1, a, x]", "[3, null, y]");
        assertThat(read.get(1)).containsExactly("[1, a]", "[3, null]");
        assertThat(reader.queryMillis())
                .hasSize(2)
                .allSatisfy(ms -> assertThat(ms).isNotNegative());
    }

    @Test
    void aLocationWithoutATableFailsWithSparksError() {
        String location = warehouse.resolve("nothing-here").toString();
        assertThatThrownBy(() -> SparkIcebergReader.readTable(location))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Spark failed to run [--view, t=" + location)
                .hasMessageContaining(
                        "it exited with code 1; the end of its standard error (without stack frames):")
                .hasMessageContaining("NoSuchTableException");
    }

    @Test
    void refusesToRunWithoutAQuery() {
        assertThatThrownBy(() -> new SparkIcebergReader().sql("SELECT 1").run())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Nothing to read: the Spark reader has no query");
        assertThatThrownBy(() -> new SparkIcebergReader().view("a=b", "/x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid view name 'a=b': expected a SQL identifier");
    }
}
