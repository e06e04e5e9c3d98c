package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.Table;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.ledger.PendingCommit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ledger of prepared files with a real streaming job: a job whose checkpoint completes but
 * whose commit is held back keeps its prepared files through orphan cleanup however forced, and
 * {@code t$health} shows the checkpoint pending; a lost prepared file makes {@code check_table}
 * name the checkpoint to restore from; restoring the job from that retained checkpoint gives every
 * row exactly once.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TarnPendingCommitITCase {

    /** Retains every checkpoint of a job (a cluster setting): the test restores an older one. */
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setConfiguration(
                                    Configuration.fromMap(
                                            Map.of("execution.checkpointing.num-retained", "100")))
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    private static final int ROWS = 400;

    @TempDir Path lake;

    @AfterEach
    void release() {
        HeldCommitFileIO.PUBLISHES_LEFT.set(Integer.MAX_VALUE);
    }

    /** A streaming environment whose catalog's tables use {@link HeldCommitFileIO}. */
    private TableEnvironment streaming(String... config) {
        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        env.getConfig().set("parallelism.default", "1");
        env.getConfig().set("execution.checkpointing.interval", "300ms");
        env.getConfig().set("execution.checkpointing.dir", lake.resolve("ckp").toUri().toString());
        env.getConfig()
                .set(
                        "execution.checkpointing.externalized-checkpoint-retention",
                        "RETAIN_ON_CANCELLATION");
        env.getConfig().set("restart-strategy.type", "none");
        for (int i = 0; i < config.length; i += 2) {
            env.getConfig().set(config[i], config[i + 1]);
        }
        env.registerCatalog(
                "lake",
                new TarnCatalog(
                        "lake",
                        new org.apache.flink.core.fs.Path(lake.toUri()),
                        "db",
                        new HeldCommitFileIO()));
        env.useCatalog("lake");
        env.executeSql(
                "CREATE TEMPORARY TABLE gen (id INT) WITH ('connector' = 'datagen',"
                        + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
                        + " 'fields.id.end' = '"
                        + ROWS
                        + "', 'rows-per-second' = '40')");
        return env;
    }

    private TableResult copy(TableEnvironment env) {
        return env.executeSql("INSERT INTO db.t SELECT id FROM gen");
    }

    private Table table() {
        return Table.load(
                FileIO.flinkFileSystems(),
                new org.apache.flink.core.fs.Path(lake.resolve("db.db/t").toUri()),
                "db.t");
    }

    @Test
    void aHeldCommitKeepsItsFilesNamesTheRestorePointAndRestoresExactlyOnce() throws Exception {
        LakeSql batch = LakeSql.open(lake);
        batch.exec("CREATE TABLE db.t (id INT) WITH ('bucket' = '1')");

        HeldCommitFileIO.PUBLISHES_LEFT.set(2);
        TableResult held = copy(streaming());
        assertThatThrownBy(
                        () ->
                                held.getJobClient()
                                        .orElseThrow()
                                        .getJobExecutionResult()
                                        .get(60, TimeUnit.SECONDS))
                .hasStackTraceContaining("injected failure: commit held back");
        HeldCommitFileIO.PUBLISHES_LEFT.set(Integer.MAX_VALUE);

        List<PendingCommit> pending = table().pendingCommits().all();
        assertThat(pending).as("the record of the held checkpoint").hasSize(1);
        PendingCommit record = pending.get(0);
        long checkpoint = record.checkpoint();
        List<String> prepared = record.committables().get(checkpoint);
        assertThat(prepared).isNotEmpty();
        Path tableDir = lake.resolve("db.db/t");
        assertThat(prepared).allMatch(f -> Files.exists(tableDir.resolve(f)));
        String health =
                "SELECT pending_commit_count, pending_commits['"
                        + record.user()
                        + "'], CARDINALITY(pending_commits), oldest_pending_commit_time IS NOT"
                        + " NULL, missing_prepared_file_count FROM db.`t$health`";
        assertThat(batch.query(health))
                .as("the held checkpoint is its job's one pending commit")
                .containsExactly("+I[1, [" + checkpoint + "], 1, true, 0]");

        String tomorrow =
                LocalDateTime.now(ZoneOffset.UTC)
                        .plusDays(1)
                        .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss"));
        List<String> removed =
                batch.query(
                        "CALL lake.sys.remove_orphan_files(`table` => 'db.t', older_than => '"
                                + tomorrow
                                + "', force => true)");
        assertThat(removed).noneMatch(row -> prepared.stream().anyMatch(row::contains));
        assertThat(prepared)
                .as("prepared files after a forced cleanup")
                .allMatch(f -> Files.exists(tableDir.resolve(f)));

        Files.delete(tableDir.resolve(prepared.get(0)));
        assertThat(batch.query(health)).containsExactly("+I[1, [" + checkpoint + "], 1, true, 1]");
        List<String> check = batch.query("CALL lake.sys.check_table('db.t')");
        assertThat(check)
                .contains(
                        "+I["
                                + prepared.get(0)
                                + ", prepared file of checkpoint "
                                + checkpoint
                                + " of commit user "
                                + record.user()
                                + " is missing: no snapshot has it yet, so the job cannot commit"
                                + " it, null]",
                        "+I[null, Pending checkpoints "
                                + checkpoint
                                + " of commit user "
                                + record.user()
                                + " have missing prepared files, and every later checkpoint of"
                                + " the job carries them: restore job "
                                + record.user()
                                + " from checkpoint "
                                + (checkpoint - 1)
                                + " or earlier and replay from its source offsets, null]");

        Path restorePoint = newestCheckpointAtOrBelow(checkpoint - 1);
        TableResult restored =
                copy(streaming("execution.state-recovery.path", restorePoint.toUri().toString()));
        restored.await(60, TimeUnit.SECONDS);
        assertThat(batch.query("SELECT COUNT(*), COUNT(DISTINCT id), MIN(id), MAX(id) FROM db.t"))
                .containsExactly("+I[" + ROWS + ", " + ROWS + ", 1, " + ROWS + "]");
        assertThat(table().pendingCommits().all())
                .as("the restored job dropped the abandoned record")
                .isEmpty();
        assertThat(batch.query(health)).containsExactly("+I[0, null, 0, false, 0]");
        assertThat(batch.query("CALL lake.sys.check_table('db.t')"))
                .singleElement()
                .asString()
                .startsWith("+I[null, Table db.t is whole");
    }

    private String listing() {
        try (Stream<Path> all = Files.walk(lake.resolve("ckp"), 3)) {
            return all.map(Path::toString).toList().toString();
        } catch (Exception e) {
            return e.toString();
        }
    }

    /** The retained checkpoint directory {@code chk-<n>} with the highest n at most {@code max}. */
    private Path newestCheckpointAtOrBelow(long max) throws Exception {
        try (Stream<Path> dirs = Files.walk(lake.resolve("ckp"), 2)) {
            return dirs.filter(p -> p.getFileName().toString().startsWith("chk-"))
                    .filter(p -> Long.parseLong(p.getFileName().toString().substring(4)) <= max)
                    .filter(p -> Files.exists(p.resolve("_metadata")))
                    .max(
                            (a, b) ->
                                    Long.compare(
                                            Long.parseLong(a.getFileName().toString().substring(4)),
                                            Long.parseLong(
                                                    b.getFileName().toString().substring(4))))
                    .orElseThrow(
                            () ->
                                    new AssertionError(
                                            "no retained checkpoint to restore at or below "
                                                    + max
                                                    + " in "
                                                    + listing()));
        }
    }
}
