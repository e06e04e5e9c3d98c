package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.testing.SparkIcebergReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Another engine reads Tarn tables through their Iceberg metadata ({@code metadata.iceberg.storage}
 * = {@code table-location}): Apache Spark with Iceberg's Spark runtime, in a JVM of its own ({@link
 * SparkIcebergReader}), reads each table's location as an Iceberg path table, and sees exactly the
 * rows of Tarn's batch read of the same table: an append table, a primary-key table with deletion
 * vectors after upserts and deletes, a partitioned table, and a table after a column rename (the
 * renamed column keeps its values, by field id).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class TarnIcebergSparkITCase {

    @RegisterExtension static final MiniClusterExtension CLUSTER = LakeSql.miniCluster();

    private static final String ICEBERG = "'metadata.iceberg.storage' = 'table-location'";

    @TempDir Path lake;

    @Test
    void sparkReadsEveryKindOfTableAsTarnDoes() throws Exception {
        LakeSql sql = LakeSql.open(lake);

        sql.exec("CREATE TABLE db.events (id INT, name STRING) WITH (" + ICEBERG + ")");
        sql.insertIds("db.events", 1, 300);
        sql.insertIds("db.events", 301, 500);

        sql.exec(
                "CREATE TABLE db.users (id INT NOT NULL, name STRING, score BIGINT, PRIMARY KEY"
                        + " (id) NOT ENFORCED) WITH ('bucket' = '2',"
                        + " 'deletion-vectors.enabled' = 'true', "
                        + ICEBERG
                        + ")");
        sql.exec(
                "INSERT INTO db.users VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 30),"
                        + " (4, 'd', 40), (5, 'e', 50)");
        sql.exec("INSERT INTO db.users VALUES (2, 'b2', 21), (4, CAST(NULL AS STRING), 41)");
        sql.exec("DELETE FROM db.users WHERE id = 3");
        sql.exec("INSERT INTO db.users VALUES (5, 'e2', 51), (6, 'f', 60)");

        sql.exec(
                "CREATE TABLE db.orders (id INT, amount BIGINT, dt STRING) PARTITIONED BY (dt)"
                        + " WITH ("
                        + ICEBERG
                        + ")");
        sql.exec(
                "INSERT INTO db.orders VALUES (1, 100, '2026-12-01'), (2, 200, '2026-12-01'),"
                        + " (3, 300, '2026-12-02'), (4, 400, CAST(NULL AS STRING))");
        sql.exec("INSERT INTO db.orders VALUES (5, 500, '2026-12-02')");

        sql.exec("CREATE TABLE db.renamed (id INT, name STRING) WITH (" + ICEBERG + ")");
        sql.insertIds("db.renamed", 1, 50);
        sql.exec("ALTER TABLE db.renamed RENAME name TO full_name");
        sql.insertIds("db.renamed", 51, 60);

        Map<String, String> queries = new LinkedHashMap<>();
        queries.put("events", "SELECT id, name FROM events");
        queries.put("users", "SELECT id, name, score FROM users");
        queries.put("orders", "SELECT id, amount, dt FROM orders");
        queries.put("renamed", "SELECT id, full_name FROM renamed");
        SparkIcebergReader spark = new SparkIcebergReader();
        for (String table : queries.keySet()) {
            spark.view(table, lake.resolve("db.db").resolve(table).toString());
        }
        queries.values().forEach(spark::query);
        List<List<String>> sparkRows = spark.run();

        int i = 0;
        for (Map.Entry<String, String> query : queries.entrySet()) {
            List<String> tarnRows = tarnRows(sql, query.getValue().replace(" FROM ", " FROM db."));
            assertThat(sparkRows.get(i++))
                    .as("Spark's read of %s", query.getKey())
                    .isNotEmpty()
                    .containsExactlyElementsOf(tarnRows);
        }
        assertThat(sparkRows.get(1))
                .containsExactly(
                        "[1, a, 10]", "[2, b2, 21]", "[4, null, 41]", "[5, e2, 51]", "[6, f, 60]");
        assertThat(sparkRows.get(3)).contains("[1, n1]", "[60, n60]").hasSize(60);
    }

    /** Tarn's batch read of {@code select}, as the Spark reader prints rows: sorted, no kind. */
    private static List<String> tarnRows(LakeSql sql, String select) throws Exception {
        List<String> rows = new ArrayList<>();
        for (String row : sql.query(select)) {
            rows.add(row.substring(row.indexOf('[')));
        }
        rows.sort(null);
        return rows;
    }
}
