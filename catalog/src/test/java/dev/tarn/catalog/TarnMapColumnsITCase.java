package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Map columns through SQL: an INSERT with a NULL map key, at any depth, fails naming the table and
 * the column, and publishes nothing; NULL values and NULL maps are written and read back.
 */
class TarnMapColumnsITCase {

    @RegisterExtension static final MiniClusterExtension CLUSTER = LakeSql.miniCluster();

    private static final String TAIL =
            ", which Parquet data files cannot store (map keys are required); leave the entry out"
                    + " or give it a key";

    @TempDir Path lake;
    private LakeSql sql;

    @BeforeEach
    void open() {
        sql = LakeSql.open(lake);
    }

    @Test
    void aNullMapKeyFailsTheInsertAndPublishesNothing() throws Exception {
        for (String table : List.of("db.m", "db.p")) {
            sql.exec(
                    "CREATE TABLE "
                            + table
                            + " (id INT, m MAP<STRING, BIGINT>, a ARRAY<MAP<STRING, BIGINT>>,"
                            + " r ROW<n INT, m MAP<STRING, BIGINT>>"
                            + (table.equals("db.p") ? ", PRIMARY KEY (id) NOT ENFORCED" : "")
                            + ")");
            sql.exec(
                    "INSERT INTO "
                            + table
                            + " VALUES (1, MAP['a', CAST(1 AS BIGINT)],"
                            + " ARRAY[MAP['b', CAST(2 AS BIGINT)]], ROW(1, MAP['c', CAST(3 AS BIGINT)]))");
            String nullKey = "MAP[CAST(NULL AS STRING), CAST(2 AS BIGINT)]";
            String ok = "MAP['ok', CAST(0 AS BIGINT)]";
            // Per column: a value with a NULL key, a good value, and the message.
            List<String[]> refused =
                    List.of(
                            new String[] {
                                "m",
                                nullKey,
                                ok,
                                "column m (MAP<STRING, BIGINT>) holds a NULL map key"
                            },
                            new String[] {
                                "a",
                                "ARRAY[" + ok + ", " + nullKey + "]",
                                "ARRAY[" + ok + "]",
                                "column a (ARRAY<MAP<STRING, BIGINT>>) holds a NULL map key at a[]"
                            },
                            new String[] {
                                "r",
                                "ROW(2, " + nullKey + ")",
                                "ROW(3, " + ok + ")",
                                "column r (ROW<`n` INT, `m` MAP<STRING, BIGINT>>) holds a NULL map"
                                        + " key at r.m"
                            });
            for (String[] c : refused) {
                String insert = "INSERT INTO " + table + " (id, " + c[0] + ") VALUES ";
                String expected = "Cannot write a row to table lake." + table + ": " + c[3] + TAIL;
                long files = dataFiles(table);
                assertThatThrownBy(() -> sql.exec(insert + "(2, " + c[1] + ")"))
                        .as(c[1])
                        .rootCause()
                        .hasMessage(expected);
                assertThat(dataFiles(table)).as("files after " + c[1]).isEqualTo(files);
                // After a good row of the same statement (whose files another writer may have
                // prepared: unreferenced, so never read).
                assertThatThrownBy(() -> sql.exec(insert + "(3, " + c[2] + "), (2, " + c[1] + ")"))
                        .as(c[1])
                        .rootCause()
                        .hasMessage(expected);
            }
            assertThat(sql.query("SELECT id FROM " + table)).containsExactly("+I[1]");
            assertThat(
                            sql.query(
                                    "SELECT snapshot_id FROM "
                                            + table.replace("db.", "db.`")
                                            + "$snapshots`"))
                    .containsExactly("+I[1]");
        }
    }

    @Test
    void nullValuesAndNullMapsAreWritten() throws Exception {
        sql.exec(
                "CREATE TABLE db.m (id INT, m MAP<STRING, BIGINT>, a ARRAY<MAP<STRING, BIGINT>>,"
                        + " r ROW<n INT, m MAP<STRING, BIGINT>>)");
        sql.exec(
                "INSERT INTO db.m VALUES (1, MAP['k', CAST(NULL AS BIGINT)],"
                        + " ARRAY[CAST(NULL AS MAP<STRING, BIGINT>)], ROW(1, CAST(NULL AS MAP<STRING,"
                        + " BIGINT>)))");
        sql.exec("INSERT INTO db.m (id) VALUES (2)");
        assertThat(sql.query("SELECT * FROM db.m"))
                .containsExactlyInAnyOrder(
                        "+I[1, {k=null}, [null], +I[1, null]]", "+I[2, null, null, null]");
    }

    /** The data files in the table's directory, referenced or not. */
    private long dataFiles(String table) throws IOException {
        try (Stream<Path> files = Files.walk(lake.resolve(table.replace("db.", "db.db/")))) {
            return files.filter(p -> p.getFileName().toString().startsWith("data-")).count();
        }
    }
}
