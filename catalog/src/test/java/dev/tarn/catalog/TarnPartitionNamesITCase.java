package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;
import javax.annotation.Nullable;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.stats.CatalogColumnStatisticsDataLong;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Partitions whose values look like each other, like a NULL's name, or like path syntax (NULL,
 * {@code ''}, {@code '__DEFAULT_PARTITION__'}, {@code 'a/b'}, {@code 'x=y'}, {@code '%2F'}, and
 * {@code '\N'}, the text of NULL's name) keep names of their own on every path that names a
 * partition: on disk, in SHOW PARTITIONS, the system tables, the catalog's statistics, the compact
 * procedure's {@code partitions} argument, INSERT OVERWRITE of a static partition and DROP
 * PARTITION.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class TarnPartitionNamesITCase {

    @RegisterExtension static final MiniClusterExtension CLUSTER = LakeSql.miniCluster();

    /**
     * One partition value and how each path names it.
     *
     * @param id the row's id in the first insert; the second insert's is {@code id + 10}
     * @param value the value, null for NULL
     * @param name its name: in a PARTITION spec, the catalog's specs and the compact procedure's
     *     {@code partitions} argument
     * @param text the partition as SHOW PARTITIONS prints it and the system tables show it
     */
    record Case(int id, @Nullable String value, String name, String text) {

        /** The value as a SQL expression. */
        String sqlValue() {
            return value == null ? "CAST(NULL AS STRING)" : quoted(value);
        }

        /** The name as a SQL literal. */
        String literal() {
            return quoted(name);
        }

        @Override
        public String toString() {
            return literal();
        }
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case(1, null, "\\N", "s=\\N"),
                new Case(2, "", "", "s="),
                new Case(
                        3,
                        "__DEFAULT_PARTITION__",
                        "__DEFAULT_PARTITION__",
                        "s=__DEFAULT_PARTITION__"),
                new Case(4, "a/b", "a/b", "s=a/b"),
                new Case(5, "x=y", "x=y", "s=x=y"),
                new Case(6, "%2F", "%2F", "s=%2F"),
                new Case(7, "\\N", "\\\\N", "s=\\\\N"));
    }

    private static final ObjectPath PS = new ObjectPath("db", "ps");

    @TempDir Path lake;
    private LakeSql sql;

    /** Two files in each partition: one row per insert, ids {@code id} and {@code id + 10}. */
    @BeforeEach
    void createTable() throws Exception {
        sql = LakeSql.open(lake);
        sql.exec("CREATE TABLE db.ps (id INT, s STRING) PARTITIONED BY (s)");
        for (int offset : new int[] {0, 10}) {
            List<String> rows = new ArrayList<>();
            cases().forEach(c -> rows.add("(" + (c.id() + offset) + ", " + c.sqlValue() + ")"));
            sql.exec("INSERT INTO db.ps VALUES " + String.join(", ", rows));
        }
    }

    @Test
    void everyPartitionHasANameOfItsOwn() throws Exception {
        assertThat(sql.query("SHOW PARTITIONS db.ps"))
                .containsExactlyInAnyOrderElementsOf(all(c -> "+I[" + c.text() + "]"));
        assertThat(
                        sql.query(
                                "SELECT `partition`, record_count, file_count FROM db.`ps$partitions`"))
                .containsExactlyInAnyOrderElementsOf(all(c -> "+I[" + c.text() + ", 2, 2]"));
        assertThat(
                        sql.query(
                                "SELECT `partition`, SUM(record_count) FROM db.`ps$buckets`"
                                        + " GROUP BY `partition`"))
                .containsExactlyInAnyOrderElementsOf(all(c -> "+I[" + c.text() + ", 2]"));
        assertThat(
                        sql.query(
                                "SELECT `partition`, COUNT(*) FROM db.`ps$files`"
                                        + " GROUP BY `partition`"))
                .containsExactlyInAnyOrderElementsOf(all(c -> "+I[" + c.text() + ", 2]"));
        // On disk, each partition is a directory of its own.
        assertThat(
                        sql.query(
                                "SELECT COUNT(DISTINCT REGEXP_EXTRACT(file_path,"
                                        + " '/(s=[^/]*)/bucket-', 1)) FROM db.`ps$files`"))
                .containsExactly("+I[7]");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void eachPartitionIsAddressedAsItself(Case c) throws Exception {
        String spec = "PARTITION (s = " + c.literal() + ")";
        assertThat(sql.query("SHOW PARTITIONS db.ps " + spec))
                .containsExactly("+I[" + c.text() + "]");

        Catalog catalog = sql.catalog();
        CatalogPartitionSpec partition = spec(c.name());
        assertThat(catalog.partitionExists(PS, partition)).isTrue();
        if (c.value() == null) {
            // A spec built in code may give NULL as null, too.
            assertThat(catalog.getPartitionStatistics(PS, spec(null)).getRowCount()).isEqualTo(2);
        }
        assertThat(catalog.getPartition(PS, partition).getProperties())
                .containsEntry("numRows", "2");
        assertThat(catalog.getPartitionStatistics(PS, partition).getRowCount()).isEqualTo(2);
        CatalogColumnStatisticsDataLong ids =
                (CatalogColumnStatisticsDataLong)
                        catalog.getPartitionColumnStatistics(PS, partition)
                                .getColumnStatisticsData()
                                .get("id");
        assertThat(List.of(ids.getMin(), ids.getMax()))
                .containsExactly((long) c.id(), c.id() + 10L);

        sql.exec(
                "CALL lake.sys.compact(`table` => 'db.ps', `partitions` => "
                        + quoted("s=" + c.name())
                        + ")");
        assertThat(sql.query("SELECT `partition`, file_count FROM db.`ps$partitions`"))
                .containsExactlyInAnyOrderElementsOf(
                        all(o -> "+I[" + o.text() + ", " + (o.equals(c) ? 1 : 2) + "]"));

        // INSERT's static partition is a value Flink writes into the rows, not a name: there the
        // text '\N' is itself, and NULL has no spelling, so its partition is overwritten
        // dynamically.
        int replacement = c.id() + 100;
        sql.exec(
                c.value() == null
                        ? "INSERT OVERWRITE db.ps VALUES ("
                                + replacement
                                + ", "
                                + c.sqlValue()
                                + ")"
                        : "INSERT OVERWRITE db.ps PARTITION (s = "
                                + c.sqlValue()
                                + ") VALUES ("
                                + replacement
                                + ")");
        assertThat(sql.query("SELECT id FROM db.ps"))
                .containsExactlyInAnyOrderElementsOf(
                        cases().flatMap(
                                        o ->
                                                o.equals(c)
                                                        ? Stream.of(o.id() + 100)
                                                        : Stream.of(o.id(), o.id() + 10))
                                .map(id -> "+I[" + id + "]")
                                .toList());

        sql.exec("ALTER TABLE db.ps DROP " + spec);
        assertThat(sql.query("SELECT id FROM db.ps"))
                .containsExactlyInAnyOrderElementsOf(
                        cases().filter(o -> !o.equals(c))
                                .flatMap(o -> Stream.of(o.id(), o.id() + 10))
                                .map(id -> "+I[" + id + "]")
                                .toList());
        assertThat(sql.query("SHOW PARTITIONS db.ps"))
                .containsExactlyInAnyOrderElementsOf(
                        cases().filter(o -> !o.equals(c))
                                .map(o -> "+I[" + o.text() + "]")
                                .toList());
    }

    @Test
    void aMalformedNameIsRefusedNamingTheValue() {
        String reason =
                "value '\\x' of s starts with a backslash but is neither \\N (NULL) nor a doubled"
                        + " backslash; '\\\\x' names the value \\x";
        assertThatThrownBy(() -> sql.exec("ALTER TABLE db.ps DROP PARTITION (s = '\\x')"))
                .rootCause()
                .hasMessage("Cannot select partitions of table db.ps by {s=\\x}: " + reason);
        assertThatThrownBy(() -> sql.query("SHOW PARTITIONS db.ps PARTITION (s = '\\x')"))
                .rootCause()
                .hasMessage("Cannot select partitions of table db.ps by {s=\\x}: " + reason);
        assertThatThrownBy(
                        () ->
                                sql.exec(
                                        "CALL lake.sys.compact(`table` => 'db.ps',"
                                                + " `partitions` => 's=\\x')"))
                .rootCause()
                .hasMessage(
                        "Cannot compact table db.ps: argument 'partitions' ('s=\\x') is malformed: "
                                + reason
                                + ". Write partitions as 'k1=v1,k2=v2;k1=v3'");
    }

    private static List<String> all(Function<Case, String> row) {
        return cases().map(row).toList();
    }

    /** A spec of {@code s} as the catalog takes it: the value's name, or null for NULL. */
    private static CatalogPartitionSpec spec(@Nullable String name) {
        Map<String, String> values = new HashMap<>();
        values.put("s", name);
        return new CatalogPartitionSpec(values);
    }

    private static String quoted(String text) {
        return "'" + text.replace("'", "''") + "'";
    }
}
