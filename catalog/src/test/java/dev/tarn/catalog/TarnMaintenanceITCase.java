package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The maintenance procedures {@code remove_orphan_files} and {@code check_table} through SQL: by
 * name and by position, their refusals, and a cleanup beside a running streaming job, whose
 * prepared files survive so that its later commits succeed.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TarnMaintenanceITCase {

    /** Slots for a streaming job at parallelism 2 beside a batch job. */
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    private static final DateTimeFormatter SQL_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

    @TempDir Path lake;
    private LakeSql sql;

    @BeforeEach
    void open() throws Exception {
        sql = LakeSql.open(lake);
        sql.exec(
                "CREATE TABLE db.t (id INT, name STRING) WITH ('bucket' = '2', 'bucket-key' = 'id')");
    }

    private Path table(String name) {
        return lake.resolve("db.db").resolve(name);
    }

    private static Path orphan(Path file, Instant modified) throws Exception {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "lost");
        Files.setLastModifiedTime(file, FileTime.from(modified));
        return file;
    }

    private static String uri(Path file) {
        return new org.apache.flink.core.fs.Path(file.toUri()).toString();
    }

    @Test
    void removeOrphanFilesAndCheckTableByNameAndByPosition() throws Exception {
        sql.insertIds("db.t", 1, 3);
        sql.insertIds("db.t", 4, 6);
        long metadataAndData = files();
        Path orphan =
                orphan(
                        table("t").resolve("bucket-0/data-lost.parquet"),
                        Instant.now().minus(Duration.ofDays(3)));

        assertThat(sql.query("CALL lake.sys.check_table('db.t')"))
                .containsExactly(
                        "+I[null, Table db.t is whole: checked 2 snapshots and "
                                + metadataAndData
                                + " files, 2]");

        List<String> dryRun =
                sql.query("CALL lake.sys.remove_orphan_files(`table` => 'db.t', dry_run => true)");
        assertThat(dryRun).hasSize(2);
        assertThat(dryRun.get(0)).isEqualTo("+I[" + uri(orphan) + ", 4]");
        assertThat(dryRun.get(1))
                .startsWith("+I[Would remove 1 orphan file (4 bytes) of table db.t older than ")
                .endsWith("(dry run: nothing was deleted), 4]");
        assertThat(orphan).exists();

        String twoDaysAgo = SQL_TIME.format(Instant.now().minus(Duration.ofDays(2)));
        List<String> removed =
                sql.query("CALL lake.sys.remove_orphan_files('db.t', '" + twoDaysAgo + "')");
        assertThat(removed.get(0)).isEqualTo("+I[" + uri(orphan) + ", 4]");
        assertThat(removed.get(1))
                .startsWith("+I[Removed 1 orphan file (4 bytes) of table db.t older than ");
        assertThat(orphan).doesNotExist();
        assertThat(sql.query("SELECT COUNT(*) FROM db.t")).containsExactly("+I[6]");

        Path dataFile;
        try (Stream<Path> files = Files.walk(table("t"))) {
            dataFile =
                    files.filter(f -> f.getFileName().toString().startsWith("data-"))
                            .findFirst()
                            .orElseThrow();
        }
        Files.delete(dataFile);
        List<String> check =
                sql.query("CALL lake.sys.check_table(`table` => 'db.t', deep => true)");
        assertThat(check).hasSize(2);
        assertThat(check.get(0))
                .isIn(
                        "+I[" + uri(dataFile) + ", data file is missing, 1, 2]",
                        "+I[" + uri(dataFile) + ", data file is missing, 2]");
        assertThat(check.get(1))
                .startsWith(
                        "+I[null, Table db.t has 1 missing or damaged file (checked 2 snapshots"
                                + " and "
                                + metadataAndData
                                + " files, reading each data file's footer); ");
    }

    /** 2 snapshots: 4 manifest lists, 2 manifests, and the data files. */
    private long files() throws Exception {
        try (Stream<Path> files = Files.walk(table("t"))) {
            return 6 + files.filter(f -> f.getFileName().toString().startsWith("data-")).count();
        }
    }

    @Test
    void badArgumentsFailWithMessagesNamingThem() throws Exception {
        assertThatThrownBy(() -> sql.query("CALL lake.sys.check_table('db.missing')"))
                .hasMessage(
                        "The call method caused an error: Table db.missing does not exist in"
                                + " catalog lake.");
        assertThatThrownBy(() -> sql.query("CALL lake.sys.create_tag('db.t', '')"))
                .hasMessage(
                        "The call method caused an error: Invalid argument 'tag' of"
                                + " sys.create_tag: ''; it is required.");
        assertThatThrownBy(() -> sql.query("CALL lake.sys.remove_orphan_files('nodot')"))
                .hasStackTraceContaining(
                        "Cannot remove orphan files of 'nodot': name a table as 'database.table'");
        String recent = SQL_TIME.format(Instant.now().minus(Duration.ofMinutes(5)));
        assertThatThrownBy(
                        () ->
                                sql.query(
                                        "CALL lake.sys.remove_orphan_files(`table` => 'db.t', older_than => '"
                                                + recent
                                                + "')"))
                .hasStackTraceContaining("Cannot remove orphan files of table db.t: older_than ")
                .hasStackTraceContaining(
                        " and files written for a commit that has not happened yet look orphaned that young; pass force => true to remove them anyway");
        assertThatThrownBy(
                        () -> sql.query("CALL lake.sys.remove_orphan_files('db.t', 'yesterday')"))
                .hasStackTraceContaining(
                        "Cannot remove orphan files of table db.t: older_than 'yesterday' is not a timestamp 'yyyy-MM-dd HH:mm:ss'");
        // Forced, a recent threshold is taken.
        assertThat(
                        sql.query(
                                "CALL lake.sys.remove_orphan_files(`table` => 'db.t', older_than => '"
                                        + recent
                                        + "', force => true)"))
                .singleElement()
                .asString()
                .startsWith("+I[Removed 0 orphan files (0 bytes) of table db.t older than ");
    }

    @Test
    void aRunningStreamingJobsFilesSurviveACleanupWithTheDefaultThreshold() throws Exception {
        // Tiny files: a writer rolls to a new file every 1,024 rows, so between two checkpoints
        // closed files wait on disk for their commit.
        sql.exec(
                "CREATE TABLE db.s (id BIGINT, name STRING) WITH ('bucket' = '2', 'bucket-key' ="
                        + " 'id', 'target-file-size' = '1 kb', 'parquet.block.size' = '1 kb')");
        TableEnvironment streaming =
                LakeSql.streaming(lake, "execution.checkpointing.interval", "2 s");
        streaming.executeSql(
                "CREATE TEMPORARY TABLE gen (id BIGINT, name STRING) WITH ('connector' = 'datagen',"
                        + " 'rows-per-second' = '20000', 'fields.name.length' = '4')");
        TableResult job = streaming.executeSql("INSERT INTO db.s SELECT id, name FROM gen");
        try {
            awaitSnapshots("s", 1);
            // A forced dry run with a threshold in the future lists the files waiting for a commit.
            List<String> pending;
            do {
                String future = SQL_TIME.format(Instant.now().plus(Duration.ofMinutes(1)));
                pending =
                        sql.query(
                                "CALL lake.sys.remove_orphan_files('db.s', '"
                                        + future
                                        + "', true, true)");
            } while (pending.size() < 2);
            List<String> cleanup = sql.query("CALL lake.sys.remove_orphan_files('db.s')");
            assertThat(cleanup)
                    .singleElement()
                    .asString()
                    .startsWith("+I[Removed 0 orphan files (0 bytes) of table db.s");
            for (String row : pending.subList(0, pending.size() - 1)) {
                String file = row.substring("+I[".length(), row.lastIndexOf(", "));
                assertThat(Path.of(java.net.URI.create(file))).exists();
            }
            long after = snapshotCount("s");
            awaitSnapshots("s", after + 2);
        } finally {
            Follower.cancelAndAwait(job);
        }
        assertThat(sql.query("CALL lake.sys.check_table('db.s')"))
                .singleElement()
                .asString()
                .startsWith("+I[null, Table db.s is whole: ");
        assertThat(sql.query("SELECT COUNT(*) > 0 FROM db.s")).containsExactly("+I[true]");
    }

    @Test
    void olderThanIsALocalTimestampOfTheSessionTimeZone() throws Exception {
        TableEnvironment tokyo = LakeSql.streaming(lake, "table.local-time-zone", "Asia/Tokyo");
        try (var rows =
                tokyo.executeSql(
                                "CALL lake.sys.remove_orphan_files('db.t', '2026-11-01 00:00:00',"
                                        + " true)")
                        .collect()) {
            assertThat(rows.next().toString())
                    .isEqualTo(
                            "+I[Would remove 0 orphan files (0 bytes) of table db.t older than"
                                    + " 2026-10-31T15:00:00Z (dry run: nothing was deleted), 0]");
        }
    }

    private long snapshotCount(String table) throws Exception {
        try (Stream<Path> files = Files.list(table(table).resolve("snapshot"))) {
            return files.filter(f -> f.getFileName().toString().startsWith("snapshot-")).count();
        }
    }

    private void awaitSnapshots(String table, long count) throws Exception {
        while (!Files.isDirectory(table(table).resolve("snapshot"))
                || snapshotCount(table) < count) {
            Thread.sleep(50);
        }
    }
}
