package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.JobID;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lookup joins against Tarn tables in batch mode, each compared with the plain join of the same
 * facts and table: a lookup join against a table that does not change must give exactly what the
 * batch join gives (keys present, absent, null and deleted; inner and left; every table shape).
 */
class TarnLookupJoinITCase {

    /** Keeps the metrics of finished jobs, to see what each lookup subtask held. */
    private static final InMemoryReporter METRICS = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension static final MiniClusterExtension CLUSTER = LakeSql.miniCluster(METRICS);

    /** Facts with keys present, absent (9), null, and deleted (4) in the dimension tables below. */
    private static final String FACTS =
            "INSERT INTO db.facts VALUES (1, 1, 'a'), (2, 2, 'b'), (3, 3, 'a'), (4, 9, 'a'),"
                    + " (5, CAST(NULL AS BIGINT), 'a'), (6, 4, 'a'), (7, 1, 'b'), (8, 2, 'a'),"
                    + " (9, 5, CAST(NULL AS STRING))";

    @TempDir Path lake;
    private LakeSql sql;

    @BeforeEach
    void createCatalog() throws Exception {
        sql = LakeSql.open(lake);
        sql.exec("CREATE TABLE db.facts (fid INT, k BIGINT, p STRING)");
        sql.exec(FACTS);
    }

    /**
     * Asserts that the lookup join of the facts with {@code dim} on {@code on} (over {@code f} and
     * {@code d}) selecting {@code select} gives the rows of the plain join, for inner and left
     * joins, and returns the inner join's rows.
     */
    private List<String> assertJoinsLikeBatch(String dim, String hints, String select, String on)
            throws Exception {
        return assertJoinsLikeBatch(dim, hints, select, on, new ArrayList<>());
    }

    /** As above, adding the ids of the lookup joins' jobs to {@code jobs}. */
    private List<String> assertJoinsLikeBatch(
            String dim, String hints, String select, String on, List<JobID> jobs) throws Exception {
        List<String> inner = null;
        for (String join : List.of("JOIN", "LEFT JOIN")) {
            String facts = "(SELECT *, PROCTIME() AS pt FROM db.facts) AS f";
            List<String> lookup =
                    sorted(
                            sql.query(
                                    String.format(
                                            "SELECT %s %s FROM %s %s %s FOR SYSTEM_TIME AS OF"
                                                    + " f.pt AS d ON %s",
                                            hints.isEmpty() ? "" : "/*+ " + hints + " */",
                                            select,
                                            facts,
                                            join,
                                            dim,
                                            on),
                                    jobs));
            List<String> batch =
                    sorted(
                            sql.query(
                                    String.format(
                                            "SELECT %s FROM %s %s %s AS d ON %s",
                                            select, facts, join, dim, on)));
            assertThat(lookup).as("%s of %s on %s", join, dim, on).isEqualTo(batch);
            if (inner == null) {
                inner = lookup;
            }
        }
        return inner;
    }

    private static List<String> sorted(List<String> rows) {
        rows.sort(null);
        return rows;
    }

    /** A deduplicate table: upserts, a deleted key. */
    private void createCustomers() throws Exception {
        sql.exec(
                "CREATE TABLE db.customers (id BIGINT, name STRING, tier BIGINT,"
                        + " PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '4')");
        sql.exec(
                "INSERT INTO db.customers VALUES (1, 'ann', 1), (2, 'bob', 2), (3, 'cy', 1),"
                        + " (4, 'dee', 3), (5, 'eve', 2)");
        sql.exec("INSERT INTO db.customers VALUES (2, 'bob2', 3), (6, 'fay', 1)");
        sql.exec("DELETE FROM db.customers WHERE id = 4");
    }

    @Test
    void byFullPrimaryKey() throws Exception {
        createCustomers();
        List<String> rows =
                assertJoinsLikeBatch("db.customers", "", "f.fid, d.name, d.tier", "f.k = d.id");
        assertThat(rows)
                .containsExactly(
                        "+I[1, ann, 1]",
                        "+I[2, bob2, 3]",
                        "+I[3, cy, 1]",
                        "+I[7, ann, 1]",
                        "+I[8, bob2, 3]",
                        "+I[9, eve, 2]");
    }

    @Test
    void asynchronouslyByFullPrimaryKey() throws Exception {
        createCustomers();
        assertJoinsLikeBatch(
                "db.customers /*+ OPTIONS('lookup.async' = 'true',"
                        + " 'lookup.async-thread-number' = '3') */",
                "LOOKUP('table' = 'd', 'output-mode' = 'allow_unordered')",
                "f.fid, d.name, d.tier",
                "f.k = d.id");
    }

    @Test
    void withProjectedColumnsAndAFilterOfTheTable() throws Exception {
        createCustomers();
        List<String> rows =
                assertJoinsLikeBatch(
                        "db.customers", "", "f.fid, d.tier", "f.k = d.id AND d.tier < 3");
        assertThat(rows).containsExactly("+I[1, 1]", "+I[3, 1]", "+I[7, 1]", "+I[9, 2]");
    }

    @Test
    void byOtherColumnsOfAPrimaryKeyTable() throws Exception {
        createCustomers();
        // Non-unique join column: every row with that tier joins.
        assertJoinsLikeBatch("db.customers", "", "f.fid, d.id, d.name", "f.k = d.tier");
    }

    @Test
    void byAPrefixOfThePrimaryKey() throws Exception {
        sql.exec(
                "CREATE TABLE db.lines (oid BIGINT, line INT, item STRING,"
                        + " PRIMARY KEY (oid, line) NOT ENFORCED)"
                        + " WITH ('bucket' = '3', 'bucket-key' = 'oid')");
        sql.exec(
                "INSERT INTO db.lines VALUES (1, 1, 'x'), (1, 2, 'y'), (2, 1, 'z'), (3, 1, 'w'),"
                        + " (3, 2, 'v'), (4, 1, 'u')");
        sql.exec("DELETE FROM db.lines WHERE oid = 3 AND line = 2");
        sql.exec("DELETE FROM db.lines WHERE oid = 4");
        List<String> rows =
                assertJoinsLikeBatch("db.lines", "", "f.fid, d.line, d.item", "f.k = d.oid");
        assertThat(rows).hasSize(7).contains("+I[1, 2, y]").doesNotContain("+I[6, 1, u]");
    }

    @Test
    void withAPartitionColumnInTheKey() throws Exception {
        sql.exec(
                "CREATE TABLE db.stock (id BIGINT, dt STRING, qty INT,"
                        + " PRIMARY KEY (id, dt) NOT ENFORCED) PARTITIONED BY (dt)"
                        + " WITH ('bucket' = '2')");
        sql.exec(
                "INSERT INTO db.stock VALUES (1, 'a', 10), (1, 'b', 11), (2, 'b', 20),"
                        + " (3, 'a', 30), (4, 'a', 40), (5, 'a', 50)");
        sql.exec("DELETE FROM db.stock WHERE id = 4");
        assertJoinsLikeBatch("db.stock", "", "f.fid, d.dt, d.qty", "f.k = d.id AND f.p = d.dt");
        // Without the partition column: a prefix join over every partition.
        assertJoinsLikeBatch("db.stock", "", "f.fid, d.dt, d.qty", "f.k = d.id");
    }

    @Test
    void againstAnAppendTable() throws Exception {
        sql.exec("CREATE TABLE db.events (k BIGINT, what STRING)");
        sql.exec("INSERT INTO db.events VALUES (1, 'x'), (1, 'x'), (2, 'y'), (5, 'z')");
        sql.exec("INSERT INTO db.events VALUES (2, 'w'), (CAST(NULL AS BIGINT), 'n')");
        List<String> rows = assertJoinsLikeBatch("db.events", "", "f.fid, d.what", "f.k = d.k");
        // Duplicate rows join twice.
        assertThat(rows).filteredOn(r -> r.startsWith("+I[1,")).hasSize(2);
    }

    @Test
    void againstAPartialUpdateTable() throws Exception {
        sql.exec(
                "CREATE TABLE db.profiles (id BIGINT, name STRING, city STRING,"
                        + " PRIMARY KEY (id) NOT ENFORCED)"
                        + " WITH ('bucket' = '2', 'merge-engine' = 'partial-update')");
        sql.exec(
                "INSERT INTO db.profiles VALUES (1, 'ann', CAST(NULL AS STRING)),"
                        + " (2, CAST(NULL AS STRING), 'rome'), (3, 'cy', 'oslo')");
        sql.exec(
                "INSERT INTO db.profiles VALUES (1, CAST(NULL AS STRING), 'lima'),"
                        + " (2, 'bob', CAST(NULL AS STRING))");
        List<String> rows =
                assertJoinsLikeBatch("db.profiles", "", "f.fid, d.name, d.city", "f.k = d.id");
        assertThat(rows).contains("+I[1, ann, lima]", "+I[2, bob, rome]");
    }

    @Test
    void shuffledByBucketEachSubtaskHoldsItsShare() throws Exception {
        createCustomers();
        // Two join subtasks, not as few as the adaptive batch scheduler would give these rows.
        sql.set("execution.batch.adaptive.auto-parallelism.enabled", "false");
        List<JobID> whole = new ArrayList<>();
        assertJoinsLikeBatch("db.customers", "", "f.fid, d.name, d.tier", "f.k = d.id", whole);
        List<JobID> shuffled = new ArrayList<>();
        assertJoinsLikeBatch(
                "db.customers",
                "LOOKUP('table' = 'd', 'shuffle' = 'true')",
                "f.fid, d.name, d.tier",
                "f.k = d.id",
                shuffled);

        // Without the hint every lookup subtask answers from every bucket, and the two (in one
        // JVM here) from one copy; with it, each of the two holds its share only.
        List<Long> full = gauges(whole.get(0), "lookupMemoryBytes");
        assertThat(full).isNotEmpty().allMatch(b -> b > 0);
        assertThat(gauges(whole.get(0), "lookupSubtasksSharing")).isNotEmpty().containsOnly(1L);
        assertThat(gauges(whole.get(0), "lookupCopySubtasks")).containsExactly(2L, 2L);
        assertThat(gauges(shuffled.get(0), "lookupSubtasksSharing")).containsExactly(2L, 2L);
        assertThat(gauges(shuffled.get(0), "lookupCopySubtasks")).containsExactly(1L, 1L);
        assertThat(gauges(shuffled.get(0), "lookupMemoryBytes"))
                .hasSize(2)
                .allMatch(b -> b > 0 && b < full.get(0));
    }

    @Test
    void noShuffleWhereTheJoinKeysDoNotDetermineTheBucket() throws Exception {
        createCustomers();
        List<JobID> jobs = new ArrayList<>();
        assertJoinsLikeBatch(
                "db.customers",
                "LOOKUP('table' = 'd', 'shuffle' = 'true')",
                "f.fid, d.id, d.name",
                "f.k = d.tier",
                jobs);
        assertThat(gauges(jobs.get(0), "lookupSubtasksSharing")).isNotEmpty().containsOnly(1L);
    }

    /** The values of the gauge {@code name} of every lookup subtask of job {@code job}. */
    private static List<Long> gauges(JobID job, String name) {
        List<Long> values = new ArrayList<>();
        for (Metric m : METRICS.findMetrics(job, name).values()) {
            values.add(((Number) ((Gauge<?>) m).getValue()).longValue());
        }
        return values;
    }

    /**
     * A dimension table of 30,000 rows of about 200 bytes (about 6 MB) and 3,000 facts over its
     * keys and beyond, for the spill cases: a memory budget of 1 MB holds a sixth of it.
     */
    private void createLargeDimension() throws Exception {
        sql.exec(
                "CREATE TEMPORARY TABLE gen_dim (id BIGINT, payload STRING) WITH ("
                        + " 'connector' = 'datagen', 'number-of-rows' = '30000',"
                        + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
                        + " 'fields.id.end' = '30000', 'fields.payload.length' = '200')");
        sql.exec(
                "CREATE TABLE db.big_dim (id BIGINT, payload STRING,"
                        + " PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '4')");
        sql.exec("INSERT INTO db.big_dim SELECT id, payload FROM gen_dim");
        sql.exec(
                "CREATE TEMPORARY TABLE gen_facts (fid INT, k BIGINT) WITH ("
                        + " 'connector' = 'datagen', 'number-of-rows' = '3000',"
                        + " 'fields.k.min' = '1', 'fields.k.max' = '33000')");
        sql.exec("INSERT INTO db.facts SELECT fid, k, 'x' FROM gen_facts");
    }

    @Test
    void aDimensionTableLargerThanTheMemoryBudgetSpillsAndJoinsLikeBatch() throws Exception {
        createLargeDimension();
        List<JobID> jobs = new ArrayList<>();
        List<String> rows =
                assertJoinsLikeBatch(
                        "db.big_dim /*+ OPTIONS('lookup.cache-max-memory-size' = '1mb') */",
                        "",
                        "f.fid, f.k, d.payload",
                        "f.k = d.id",
                        jobs);
        assertThat(rows).hasSizeGreaterThan(2000);
        // Both lookup subtasks report the one copy they share in this JVM, spilled past 1 MB.
        assertThat(gauges(jobs.get(0), "lookupDiskBytes")).hasSize(2).allMatch(b -> b > 0);
        assertThat(gauges(jobs.get(0), "lookupMemoryBytes"))
                .isNotEmpty()
                .allMatch(b -> b <= 1L << 20);
    }

    @Test
    void aDiskBudgetTooSmallForTheTableFailsNamingTheOption() throws Exception {
        createLargeDimension();
        assertThatThrownBy(
                        () ->
                                sql.query(
                                        "SELECT f.fid, d.payload FROM (SELECT *, PROCTIME() AS pt"
                                                + " FROM db.facts) AS f JOIN db.big_dim /*+ OPTIONS("
                                                + "'lookup.cache-max-memory-size' = '1mb',"
                                                + " 'lookup.cache-max-disk-size' = '64kb') */"
                                                + " FOR SYSTEM_TIME AS OF f.pt AS d ON f.k = d.id"))
                .hasStackTraceContaining("beyond lookup.cache-max-disk-size = 65536 bytes")
                .hasStackTraceContaining("raise lookup.cache-max-disk-size");
    }

    @Test
    void badLookupOptionsNameOptionValueAndReason() throws Exception {
        createCustomers();
        String join =
                "SELECT f.fid, d.name FROM (SELECT *, PROCTIME() AS pt FROM db.facts) AS f"
                        + " JOIN db.customers /*+ OPTIONS(%s) */ FOR SYSTEM_TIME AS OF f.pt AS d"
                        + " ON f.k = d.id";
        assertThatThrownBy(() -> sql.query(String.format(join, "'lookup.async' = 'yes'")))
                .hasStackTraceContaining(
                        "Invalid value 'yes' for option 'lookup.async' of table"
                                + " lake.db.customers: must be 'true' or 'false'");
        assertThatThrownBy(
                        () -> sql.query(String.format(join, "'lookup.async-thread-number' = '0'")))
                .hasStackTraceContaining(
                        "Invalid value '0' for option 'lookup.async-thread-number' of table"
                                + " lake.db.customers: must be a whole number from 1 to 1024");
        assertThatThrownBy(() -> sql.query(String.format(join, "'lookup.cache' = 'partial'")))
                .hasStackTraceContaining("lookup.cache")
                .hasStackTraceContaining("partial");
    }
}
