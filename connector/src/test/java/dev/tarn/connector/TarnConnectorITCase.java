package dev.tarn.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.Table;
import dev.tarn.format.TableMetadata;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.snapshot.Snapshot.CommitKind;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Batch SQL through the {@code 'connector' = 'tarn'} factory, on a shared MiniCluster. */
class TarnConnectorITCase {

    @RegisterExtension static final MiniClusterExtension CLUSTER = TestJobs.miniCluster(2);

    @TempDir File dir;
    private TableEnvironment env;
    private String path;

    @BeforeEach
    void setUp() {
        env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        env.getConfig().set("parallelism.default", "2");
        path = new Path(dir.toURI()).toString() + "/events";
        env.executeSql(
                "CREATE TABLE events (id BIGINT, k INT, name STRING, price DOUBLE, dt STRING)"
                        + " PARTITIONED BY (dt) WITH ('connector' = 'tarn', 'path' = '"
                        + path
                        + "', 'bucket' = '4', 'bucket-key' = 'id')");
    }

    private List<String> query(String sql) throws Exception {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = env.executeSql(sql).collect()) {
            it.forEachRemaining(r -> rows.add(r.toString()));
        }
        return rows;
    }

    private void exec(String sql) throws Exception {
        env.executeSql(sql).await();
    }

    private TableMetadata snapshots() {
        return Table.load(FileIO.flinkFileSystems(), new Path(path), "events").metadata();
    }

    @Test
    void insertPublishesOneSnapshotPerStatementAndReadsBack() throws Exception {
        exec(
                "INSERT INTO events VALUES (1, 10, 'a', 1.5, 'x'), (2, 20, 'b', 2.5, 'x'),"
                        + " (3, 30, CAST(NULL AS STRING), CAST(NULL AS DOUBLE), 'y')");
        exec("INSERT INTO events VALUES (4, 40, 'd', 4.0, 'y')");

        assertThat(snapshots().latestSnapshotId()).hasValue(2);
        assertThat(snapshots().snapshot(2).records().total()).isEqualTo(4);
        assertThat(query("SELECT id, k, name, price, dt FROM events ORDER BY id"))
                .containsExactly(
                        "+I[1, 10, a, 1.5, x]",
                        "+I[2, 20, b, 2.5, x]",
                        "+I[3, 30, null, null, y]",
                        "+I[4, 40, d, 4.0, y]");
        assertThat(query("SELECT dt, COUNT(*), SUM(price) FROM events GROUP BY dt ORDER BY dt"))
                .containsExactly("+I[x, 2, 4.0]", "+I[y, 2, 4.0]");
    }

    @Test
    void timeTravelBySnapshotIdAndClearErrorOutsideHistory() throws Exception {
        exec("INSERT INTO events VALUES (1, 10, 'a', 1.5, 'x')");
        exec("INSERT INTO events VALUES (2, 20, 'b', 2.5, 'x')");

        assertThat(query("SELECT id FROM events /*+ OPTIONS('scan.snapshot-id'='1') */"))
                .containsExactly("+I[1]");
        assertThatThrownBy(
                        () -> query("SELECT id FROM events /*+ OPTIONS('scan.snapshot-id'='7') */"))
                .hasStackTraceContaining("snapshot 7 does not exist")
                .hasStackTraceContaining("snapshots 1 to 2");
    }

    @Test
    void filterProjectionAndLimit() throws Exception {
        exec(
                "INSERT INTO events SELECT CAST(v AS BIGINT), v, 'n', v * 1.0, IF(v < 50, 'lo', 'hi')"
                        + " FROM (VALUES (1), (10), (20), (49), (50), (99)) AS t(v)");
        assertThat(query("SELECT id FROM events WHERE id BETWEEN 10 AND 49 ORDER BY id"))
                .containsExactly("+I[10]", "+I[20]", "+I[49]");
        assertThat(query("SELECT name FROM events WHERE dt = 'hi'")).hasSize(2);
        assertThat(query("SELECT COUNT(*) FROM (SELECT id FROM events LIMIT 3)"))
                .containsExactly("+I[3]");
    }

    /**
     * The rows a filter keeps are Flink's own: each query over the table returns what it returns
     * over the same rows in a view Flink filters alone, with NULLs, NaN and a negative zero among
     * the doubles, conjunctions, disjunctions, IN and NOT, and projections without the filter's
     * columns (Tarn drops rows as it decodes them, and must drop no row Flink keeps).
     */
    @Test
    void filtersReturnWhatFlinkReturnsOverTheSameRows() throws Exception {
        env.executeSql(
                "CREATE TEMPORARY TABLE seq (v INT) WITH ('connector' = 'datagen',"
                        + " 'number-of-rows' = '3000', 'fields.v.kind' = 'sequence',"
                        + " 'fields.v.start' = '1', 'fields.v.end' = '3000')");
        env.executeSql(
                "CREATE TEMPORARY VIEW src AS SELECT CAST(v AS BIGINT) AS id,"
                        + " IF(MOD(v, 11) = 0, CAST(NULL AS INT), MOD(v * 7, 10)) AS k,"
                        + " IF(MOD(v, 7) = 0, CAST(NULL AS STRING), CONCAT('x', CAST(MOD(v, 50)"
                        + " AS STRING))) AS name,"
                        + " CASE MOD(v, 6) WHEN 0 THEN CAST(NULL AS DOUBLE)"
                        + " WHEN 1 THEN CAST('-0.0' AS DOUBLE) WHEN 2 THEN CAST('NaN' AS DOUBLE)"
                        + " WHEN 3 THEN CAST(0 AS DOUBLE) ELSE MOD(v, 13) / 2.0 END AS price,"
                        + " IF(MOD(v, 3) = 0, 'a', 'b') AS dt FROM seq");
        exec("INSERT INTO events SELECT id, k, name, price, dt FROM src");
        List<String> filters =
                List.of(
                        "k < 3",
                        "k = 5 OR name = 'x7'",
                        "k IN (1, 2, 9) AND name > 'x3'",
                        "k <> 4",
                        "NOT (k = 4)",
                        "k IS NULL OR price IS NULL",
                        "price = 0",
                        "price <> 0",
                        "price < 1.5",
                        "price >= 0 AND k IS NOT NULL",
                        "name IS NULL",
                        "name = 'x7' AND dt = 'a'",
                        "(k = 1 AND price > 2) OR (k = 2 AND name < 'x2')");
        // One job per side: each filter's rows tagged with its number.
        List<String> expected = query(tagged(filters, "src"));
        for (int i = 0; i < filters.size(); i++) {
            String tag = "+I[" + i + ",";
            assertThat(expected.stream().filter(r -> r.startsWith(tag)).count())
                    .as(filters.get(i))
                    .isBetween(1L, 2999L);
        }
        assertThat(query(tagged(filters, "events"))).isEqualTo(expected);
    }

    /** Each filter's ids from {@code table}, tagged with the filter's number, in order. */
    private static String tagged(List<String> filters, String table) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < filters.size(); i++) {
            parts.add("SELECT " + i + " AS f, id FROM " + table + " WHERE " + filters.get(i));
        }
        return "SELECT f, id FROM (" + String.join(" UNION ALL ", parts) + ") ORDER BY f, id";
    }

    @Test
    void insertOverwriteReplacesOnlyWrittenPartitions() throws Exception {
        exec("INSERT INTO events VALUES (1, 1, 'a', 1.0, 'x'), (2, 2, 'b', 2.0, 'y')");
        exec("INSERT OVERWRITE events VALUES (3, 3, 'c', 3.0, 'y')");
        assertThat(snapshots().latestSnapshot().orElseThrow().commit().kind())
                .isEqualTo(CommitKind.OVERWRITE);
        assertThat(query("SELECT id, dt FROM events ORDER BY id"))
                .containsExactly("+I[1, x]", "+I[3, y]");

        exec("INSERT OVERWRITE events PARTITION (dt = 'x') VALUES (5, 5, 'e', 5.0)");
        assertThat(query("SELECT id, dt FROM events ORDER BY id"))
                .containsExactly("+I[3, y]", "+I[5, x]");
    }

    /** Declares another table over the same path, with {@code options} after 'path'. */
    private void declare(String name, String options) {
        env.executeSql(
                "CREATE TABLE "
                        + name
                        + " (id BIGINT, k INT, name STRING, price DOUBLE, dt STRING)"
                        + " PARTITIONED BY (dt) WITH ('connector' = 'tarn', 'path' = '"
                        + path
                        + "'"
                        + options
                        + ")");
    }

    @Test
    void pathDdlCannotChangeOptionsFixedAtCreation() throws Exception {
        exec("INSERT INTO events VALUES (1, 10, 'a', 1.5, 'x'), (2, 20, 'b', 2.5, 'y')");

        declare("eight", ", 'bucket' = '8', 'bucket-key' = 'id'");
        String refused =
                "Option 'bucket' of table default_catalog.default_database.eight is fixed at"
                        + " creation: the table has '4', the query gives '8'. Create a new table to"
                        + " change it. The options of a 'connector' = 'tarn' table's DDL apply as"
                        + " the query's; the table at "
                        + new Path(path)
                        + " keeps its own.";
        assertThatThrownBy(() -> query("SELECT id FROM eight")).hasStackTraceContaining(refused);
        assertThatThrownBy(() -> exec("INSERT INTO eight VALUES (3, 30, 'c', 3.5, 'x')"))
                .hasStackTraceContaining(refused);
        declare("rekeyed", ", 'bucket' = '4', 'bucket-key' = 'k'");
        assertThatThrownBy(() -> query("SELECT id FROM rekeyed"))
                .hasStackTraceContaining(
                        "Option 'bucket-key' of table default_catalog.default_database.rekeyed is"
                                + " fixed at creation: the table has 'id', the query gives 'k'.");
        assertThat(snapshots().latestSnapshotId()).hasValue(1);

        // The stored values, or none, or other tuning: the table reads and writes as it is.
        declare("same", ", 'bucket' = '4'");
        declare("bare", "");
        declare("tuned", ", 'target-file-size' = '1mb', 'source.split.target-size' = '1b'");
        exec("INSERT INTO tuned VALUES (3, 30, 'c', 3.5, 'x')");
        assertThat(query("SELECT id FROM same ORDER BY id"))
                .containsExactly("+I[1]", "+I[2]", "+I[3]");
        assertThat(query("SELECT id FROM bare ORDER BY id"))
                .containsExactly("+I[1]", "+I[2]", "+I[3]");
        assertThat(query("SELECT id FROM tuned ORDER BY id"))
                .containsExactly("+I[1]", "+I[2]", "+I[3]");
    }

    @Test
    void hintCannotChangeAnOptionFixedAtCreation() throws Exception {
        exec("INSERT INTO events VALUES (1, 10, 'a', 1.5, 'x')");
        assertThatThrownBy(() -> query("SELECT id FROM events /*+ OPTIONS('bucket'='2') */"))
                .hasStackTraceContaining(
                        "Option 'bucket' of table default_catalog.default_database.events is fixed"
                                + " at creation: the table has '4', the query gives '2'.");
    }

    @Test
    void unknownOptionIsRejectedWithItsName() {
        assertThatThrownBy(() -> query("SELECT * FROM events /*+ OPTIONS('scan.snapshot'='1') */"))
                .hasStackTraceContaining("Unknown option 'scan.snapshot'");
    }
}
