package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Options only the table may set are refused as hints and, once the table has data, in ALTER TABLE;
 * scan and write tuning still work per query. Batch SQL through the catalog.
 */
class TarnOptionScopeITCase {

    @RegisterExtension static final MiniClusterExtension CLUSTER = LakeSql.miniCluster();

    private static final String EIGHT_KEYS =
            " VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e'), (6, 'f'), (7, 'g'), (8, 'h')";

    @TempDir Path lake;
    private LakeSql sql;

    @BeforeEach
    void createTable() throws Exception {
        sql = LakeSql.open(lake);
        sql.exec(
                "CREATE TABLE lake.db.pk (id BIGINT, v STRING, PRIMARY KEY (id) NOT ENFORCED)"
                        + " WITH ('bucket' = '4')");
        sql.exec("INSERT INTO lake.db.pk" + EIGHT_KEYS);
    }

    private List<String> query(String statement) throws Exception {
        List<String> rows = sql.query(statement);
        rows.sort(null);
        return rows;
    }

    @Test
    void hintsCannotChangeBucketsOrTheMergeEngine() throws Exception {
        assertThatThrownBy(
                        () ->
                                sql.exec(
                                        "INSERT INTO lake.db.pk /*+ OPTIONS('bucket' = '8') */"
                                                + " VALUES (1, 'a2'), (2, 'b2'), (3, 'c2'),"
                                                + " (4, 'd2'), (5, 'e2'), (6, 'f2'), (7, 'g2'),"
                                                + " (8, 'h2')"))
                .hasStackTraceContaining(
                        "Option 'bucket' of table lake.db.pk is fixed at creation: the table has"
                                + " '4', the query gives '8'. Create a new table to change it.");
        assertThat(query("SELECT COUNT(*), COUNT(DISTINCT id) FROM lake.db.pk"))
                .containsExactly("+I[8, 8]");

        assertThatThrownBy(
                        () ->
                                sql.exec(
                                        "INSERT INTO lake.db.pk /*+ OPTIONS('merge-engine' ="
                                                + " 'first-row') */ VALUES (1, 'a3')"))
                .hasStackTraceContaining(
                        "Option 'merge-engine' of table lake.db.pk is fixed at creation: the table"
                                + " has 'deduplicate' (the default), the query gives 'first-row'.");
        assertThat(query("SELECT * FROM lake.db.pk WHERE id = 1")).containsExactly("+I[1, a]");
        assertThat(query("SELECT COUNT(*), COUNT(DISTINCT id) FROM lake.db.pk"))
                .containsExactly("+I[8, 8]");

        // A read is refused too: it would merge the stored versions by another engine.
        assertThatThrownBy(
                        () ->
                                query(
                                        "SELECT * FROM lake.db.pk /*+ OPTIONS('sequence.field' ="
                                                + " 'v') */"))
                .hasStackTraceContaining(
                        "Option 'sequence.field' of table lake.db.pk is fixed at creation: the"
                                + " table has none, the query gives 'v'.");
    }

    @Test
    void hintWithTheTablesOwnValueIsAccepted() throws Exception {
        sql.exec(
                "INSERT INTO lake.db.pk /*+ OPTIONS('bucket' = '4', 'merge-engine' ="
                        + " 'deduplicate') */ VALUES (1, 'a2')");
        assertThat(query("SELECT * FROM lake.db.pk WHERE id = 1")).containsExactly("+I[1, a2]");
    }

    @Test
    void scanAndWriteTuningWorkPerQuery() throws Exception {
        sql.exec(
                "INSERT INTO lake.db.pk /*+ OPTIONS('write-buffer-size' = '1mb',"
                        + " 'target-file-size' = '1mb', 'file.compression' = 'gzip',"
                        + " 'commit.max-retries' = '3') */ VALUES (1, 'a2'), (9, 'i')");
        assertThat(query("SELECT * FROM lake.db.pk /*+ OPTIONS('scan.snapshot-id' = '1') */"))
                .hasSize(8)
                .contains("+I[1, a]");
        assertThat(
                        query(
                                "SELECT * FROM lake.db.pk /*+ OPTIONS('source.split.target-size'"
                                        + " = '1b') */ WHERE id IN (1, 9)"))
                .containsExactly("+I[1, a2]", "+I[9, i]");
    }

    @Test
    void alterOnlyOptionIsRefusedAsHint() {
        assertThatThrownBy(
                        () ->
                                query(
                                        "SELECT * FROM lake.db.pk /*+ OPTIONS('file.format' = 'orc') */"))
                .hasStackTraceContaining(
                        "Option 'file.format' of table lake.db.pk may change only with ALTER TABLE"
                                + " ... SET: the table has 'parquet' (the default), the query"
                                + " gives 'orc'.");
    }

    @Test
    void alterCannotChangeFixedOptionsOnceTheTableHasData() throws Exception {
        assertThatThrownBy(
                        () -> sql.exec("ALTER TABLE lake.db.pk SET ('merge-engine' = 'first-row')"))
                .hasStackTraceContaining(
                        "Cannot alter table db.pk: option 'merge-engine' is fixed once the table"
                                + " has data (it is at snapshot 1): the table has 'deduplicate'"
                                + " (the default), ALTER TABLE gives 'first-row'. Create a new"
                                + " table to change it.");
        assertThatThrownBy(() -> sql.exec("ALTER TABLE lake.db.pk SET ('sequence.field' = 'v')"))
                .hasStackTraceContaining(
                        "option 'sequence.field' is fixed once the table has data");

        sql.exec(
                "CREATE TABLE lake.db.totals (k STRING, total BIGINT, PRIMARY KEY (k) NOT ENFORCED)"
                        + " WITH ('merge-engine' = 'aggregation',"
                        + " 'fields.total.aggregate-function' = 'sum')");
        sql.exec("INSERT INTO lake.db.totals VALUES ('a', 1)");
        assertThatThrownBy(
                        () ->
                                sql.exec(
                                        "ALTER TABLE lake.db.totals SET"
                                                + " ('fields.total.aggregate-function' = 'max')"))
                .hasStackTraceContaining(
                        "option 'fields.total.aggregate-function' is fixed once the table has data"
                                + " (it is at snapshot 1): the table has 'sum', ALTER TABLE gives"
                                + " 'max'.");
        assertThatThrownBy(
                        () ->
                                sql.exec(
                                        "ALTER TABLE lake.db.totals RESET"
                                                + " ('fields.total.aggregate-function')"))
                .hasStackTraceContaining(
                        "the table has 'sum', ALTER TABLE gives none. Create a new table to"
                                + " change it.");
        sql.exec("INSERT INTO lake.db.totals VALUES ('a', 2)");
        assertThat(query("SELECT * FROM lake.db.totals")).containsExactly("+I[a, 3]");

        // Tuning may change with data, and so may the one ALTER-only option.
        sql.exec(
                "ALTER TABLE lake.db.pk SET ('target-file-size' = '64mb', 'file.format' ="
                        + " 'parquet')");
        assertThat(query("SHOW CREATE TABLE lake.db.pk").get(0))
                .contains("'target-file-size' = '64mb'");
    }

    @Test
    void alterMayChangeFixedOptionsWhileTheTableIsEmpty() throws Exception {
        sql.exec("CREATE TABLE lake.db.firsts (k STRING, v STRING, PRIMARY KEY (k) NOT ENFORCED)");
        sql.exec("ALTER TABLE lake.db.firsts SET ('merge-engine' = 'first-row')");
        sql.exec("INSERT INTO lake.db.firsts VALUES ('k', 'first')");
        sql.exec("INSERT INTO lake.db.firsts VALUES ('k', 'second')");
        assertThat(query("SELECT v FROM lake.db.firsts")).containsExactly("+I[first]");
    }

    @Test
    void bucketKeyWithoutBucketsIsRefused() throws Exception {
        String message =
                "Option 'bucket-key' = 'id' of table db.log has no effect with 'bucket' = -1 (no"
                        + " bucketing): set 'bucket' to a positive number of buckets, or remove"
                        + " 'bucket-key'";
        assertThatThrownBy(
                        () ->
                                sql.exec(
                                        "CREATE TABLE lake.db.log (id BIGINT, v STRING)"
                                                + " WITH ('bucket-key' = 'id')"))
                .hasStackTraceContaining(message);
        assertThatThrownBy(
                        () ->
                                sql.exec(
                                        "CREATE TABLE lake.db.log (id BIGINT, v STRING)"
                                                + " WITH ('bucket' = '-1', 'bucket-key' = 'id')"))
                .hasStackTraceContaining(message);

        sql.exec("CREATE TABLE lake.db.log (id BIGINT, v STRING)");
        assertThatThrownBy(() -> sql.exec("ALTER TABLE lake.db.log SET ('bucket-key' = 'id')"))
                .hasStackTraceContaining(message);
        sql.exec("ALTER TABLE lake.db.log SET ('bucket' = '2', 'bucket-key' = 'id')");
        assertThatThrownBy(() -> sql.exec("ALTER TABLE lake.db.log RESET ('bucket')"))
                .hasStackTraceContaining(message);
        sql.exec("INSERT INTO lake.db.log VALUES (1, 'a')");
        assertThat(query("SELECT * FROM lake.db.log")).containsExactly("+I[1, a]");
    }

    @Test
    void deletionVectorsAreForPrimaryKeyTablesAndStayOnWhileTheTableHasThem() throws Exception {
        String appendRefused =
                "Option 'deletion-vectors.enabled' = 'true' of table db.log applies to primary-key"
                        + " tables only: rows of an append table are only ever added (and dropped"
                        + " by partition or overwrite), never replaced or deleted one by one, so it"
                        + " has no row to mark deleted. Declare a PRIMARY KEY, or remove the"
                        + " option";
        assertThatThrownBy(
                        () ->
                                sql.exec(
                                        "CREATE TABLE lake.db.log (id BIGINT, v STRING)"
                                                + " WITH ('deletion-vectors.enabled' = 'true')"))
                .hasStackTraceContaining(appendRefused);
        sql.exec("CREATE TABLE lake.db.log (id BIGINT, v STRING)");
        assertThatThrownBy(
                        () ->
                                sql.exec(
                                        "ALTER TABLE lake.db.log SET"
                                                + " ('deletion-vectors.enabled' = 'true')"))
                .hasStackTraceContaining(appendRefused);

        // On for a table with data; its next writes would keep vectors. One, as a writer leaves it:
        sql.exec("ALTER TABLE lake.db.pk SET ('deletion-vectors.enabled' = 'true')");
        TestCatalogTables.deleteRows(
                new org.apache.flink.core.fs.Path(lake.resolve("db.db").resolve("pk").toUri()),
                "db.pk",
                1,
                0);
        for (String off :
                List.of(
                        "SET ('deletion-vectors.enabled' = 'false')",
                        "RESET ('deletion-vectors.enabled')")) {
            assertThatThrownBy(() -> sql.exec("ALTER TABLE lake.db.pk " + off))
                    .hasStackTraceContaining(
                            "Cannot alter table db.pk: option 'deletion-vectors.enabled' cannot be"
                                    + " turned off while the table has deletion vectors (its"
                                    + " latest snapshot, 2, has 1): read without them, the rows"
                                    + " they delete would be back. A full compaction (CALL"
                                    + " sys.compact) removes them; turn the option off after it");
        }
        assertThat(query("SHOW CREATE TABLE lake.db.pk").get(0))
                .contains("'deletion-vectors.enabled' = 'true'");

        // The compaction job drops the deleted row and the vector; then the option may go off.
        assertThat(query("CALL lake.sys.compact('db.pk')").get(0))
                .startsWith("+I[Compacted 4 buckets of table db.pk into snapshot 3");
        assertThat(query("SELECT COUNT(*) FROM lake.db.pk")).containsExactly("+I[7]");
        sql.exec("ALTER TABLE lake.db.pk RESET ('deletion-vectors.enabled')");
        assertThat(query("SHOW CREATE TABLE lake.db.pk").get(0))
                .doesNotContain("deletion-vectors.enabled");
    }

    @Test
    void ignoreDeleteFalseKeepsDeletes() throws Exception {
        for (String ignore : List.of("false", "true")) {
            String table = "lake.db.deletes_" + ignore;
            sql.exec(
                    "CREATE TABLE "
                            + table
                            + " (id BIGINT, v STRING, PRIMARY KEY (id) NOT ENFORCED)"
                            + " WITH ('ignore-delete' = '"
                            + ignore
                            + "')");
            sql.exec("INSERT INTO " + table + EIGHT_KEYS);
            sql.exec("DELETE FROM " + table + " WHERE id <= 3");
        }
        assertThat(query("SELECT v FROM lake.db.deletes_false"))
                .containsExactly("+I[d]", "+I[e]", "+I[f]", "+I[g]", "+I[h]");
        assertThat(query("SELECT COUNT(*) FROM lake.db.deletes_false")).containsExactly("+I[5]");
        assertThat(query("SELECT COUNT(*) FROM lake.db.deletes_true")).containsExactly("+I[8]");
    }
}
