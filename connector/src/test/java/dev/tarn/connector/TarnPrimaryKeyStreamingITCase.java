package dev.tarn.connector;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.connector.FaultyFileSystem.Publication;
import dev.tarn.format.Table;
import dev.tarn.format.TableMetadata;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.Snapshot.CommitKind;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.annotation.Nullable;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Streaming upserts and deletes into a primary-key table with flushes and compactions during the
 * job, through failures at every step of the commit protocol: the table ends with exactly the last
 * version of every key, each checkpoint's changes committed once.
 *
 * <p>Input: change {@code i} is version {@code i / KEYS} of key {@code i % KEYS}, an {@code +U}
 * with value {@code key * 100 + version} or a {@code -D} (see {@link #deleted}). One source subtask
 * produces them, so each key's changes stay in order. They enter the planner through {@code
 * fromChangelogStream} in upsert mode with the primary key declared, the upsert changelog the sink
 * takes; the planner accepts it as a source of an INSERT into the table.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class TarnPrimaryKeyStreamingITCase {

    @RegisterExtension static final MiniClusterExtension CLUSTER = TestJobs.miniCluster(4);

    private static final long KEYS = 3_000;
    private static final long VERSIONS = 10;
    private static final long CHANGES = KEYS * VERSIONS;

    /** Where the input fails once, as soon as a snapshot has been published. */
    private static final long FAIL_AT = 17_000;

    /** The latest checkpoint {@link CheckpointProbe} saw complete. */
    private static final AtomicLong COMPLETED = new AtomicLong();

    /** The first checkpoint whose barrier followed the last change, as the probe saw it. */
    private static final AtomicLong LAST_INPUT = new AtomicLong();

    /** The latest checkpoint the probe took part in. */
    private static final AtomicLong LATEST = new AtomicLong();

    @TempDir File dir;

    @BeforeEach
    void reset() {
        InjectedFailure.reset();
        COMPLETED.set(0);
        LAST_INPUT.set(0);
        LATEST.set(0);
    }

    /** Version {@code 4} of every 5th key and the last version of every 7th are deletes. */
    private static boolean deleted(long key, long version) {
        return (version == 4 && key % 5 == 0) || (version == VERSIONS - 1 && key % 7 == 0);
    }

    private static Row change(long i) {
        long key = i % KEYS;
        long version = i / KEYS;
        RowKind kind = deleted(key, version) ? RowKind.DELETE : RowKind.UPDATE_AFTER;
        return Row.ofKind(kind, key, key * 100 + version);
    }

    /** What one job run is: where, how fast, with which failure, from which savepoint. */
    private record Run(
            String path,
            int parallelism,
            RateLimiterStrategy<?> limiter,
            long inputLength,
            boolean failOnce,
            boolean slowAcknowledgements,
            @Nullable String savepoint) {

        static Run of(String path) {
            return new Run(
                    path, 2, RateLimiterStrategy.perSecond(10_000), CHANGES, false, false, null);
        }

        Run failingOnce() {
            return new Run(path, parallelism, limiter, inputLength, true, false, savepoint);
        }

        Run withSlowAcknowledgements() {
            return new Run(path, parallelism, limiter, inputLength, failOnce, true, savepoint);
        }

        Run rate(RateLimiterStrategy<?> rate, long length) {
            return new Run(path, parallelism, rate, length, failOnce, false, savepoint);
        }

        Run restoring(int newParallelism, String from) {
            return new Run(path, newParallelism, limiter, inputLength, false, false, from);
        }
    }

    private String localPath() {
        return new Path(dir.toURI()) + "/t";
    }

    private String faultyPath(Publication publication) {
        return publication.path(dir, "t");
    }

    private static String ddl(String path) {
        return "CREATE TABLE t (k BIGINT, v BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH ("
                + "'connector' = 'tarn', 'path' = '"
                + path
                + "', 'bucket' = '4', 'write-buffer-size' = '1mb',"
                + " 'num-sorted-run.compaction-trigger' = '3')";
    }

    private static JobClient start(Run run, long checkpointMillis) throws Exception {
        Configuration conf = TestJobs.restarting();
        if (run.savepoint != null) {
            conf.set(StateRecoveryOptions.SAVEPOINT_PATH, run.savepoint);
        }
        if (run.slowAcknowledgements) {
            // A checkpoint completes long after its barrier passed the committer, so the next
            // barrier reaches the committer before the previous checkpoint's commit.
            conf.set(CheckpointingOptions.MAX_CONCURRENT_CHECKPOINTS, 2);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(run.parallelism);
        env.enableCheckpointing(checkpointMillis);
        SingleOutputStreamOperator<Long> sequence =
                TestJobs.sequence(env, run.inputLength, run.limiter, "changes").setParallelism(1);
        DataStream<Row> changes =
                sequence.map(new CheckpointProbe(0))
                        .setParallelism(1)
                        .uid("probe")
                        .filter(i -> i < CHANGES)
                        .setParallelism(1)
                        .uid("input")
                        .map(
                                run.failOnce
                                        ? new FailOnce(new InjectedFailure(run.path, FAIL_AT))
                                        : TarnPrimaryKeyStreamingITCase::change)
                        .setParallelism(1)
                        .uid("rows")
                        .returns(Types.ROW_NAMED(new String[] {"k", "v"}, Types.LONG, Types.LONG));
        StreamTableEnvironment tables = StreamTableEnvironment.create(env);
        tables.executeSql(ddl(run.path));
        StreamStatementSet insert = tables.createStatementSet();
        insert.add(
                tables.fromChangelogStream(
                                changes,
                                Schema.newBuilder().primaryKey("k").build(),
                                ChangelogMode.upsert())
                        .insertInto("t"));
        insert.attachAsDataStream();
        if (run.slowAcknowledgements) {
            sequence.filter(i -> false)
                    .setParallelism(1)
                    .map(new CheckpointProbe(400))
                    .setParallelism(1)
                    .disableChaining()
                    .sinkTo(new DiscardingSink<>())
                    .setParallelism(1);
        }
        return env.executeAsync("upserts into " + run.path);
    }

    private static void runToEnd(Run run) throws Exception {
        start(run, 200).getJobExecutionResult().get();
    }

    @Test
    void failureBeforeACheckpointLosesAndDuplicatesNothing() throws Exception {
        runToEnd(Run.of(localPath()).failingOnce());
        Snapshot before = InjectedFailure.latestAtFailure();
        assertThat(before).as("the job failed once, after a snapshot was published").isNotNull();
        assertFinalRows(localPath());
        assertThat(assertCommitsInOrder(localPath()))
                .as("the restart went on from the committed snapshot %s", before.id())
                .anyMatch(s -> s.commit().identifier() > before.commit().identifier())
                .allMatch(s -> s.commit().user().equals(before.commit().user()));
    }

    @ParameterizedTest
    @EnumSource(Publication.class)
    void failureBeforeACompactSnapshotIsPublishedRetriesTheCompaction(Publication publication)
            throws Exception {
        FaultyFileSystem.arm(FaultyFileSystem.Mode.BEFORE_PUBLISH, 1, "COMPACT", null);
        String path = faultyPath(publication);
        runToEnd(Run.of(path));
        assertThat(FaultyFileSystem.failures()).isEqualTo(1);
        assertFinalRows(path);
        List<Snapshot> commits = assertCommitsInOrder(path);
        long failed = FaultyFileSystem.failedIdentifier();
        assertThat(commits)
                .as("a COMPACT snapshot published before the failing one")
                .anyMatch(
                        s ->
                                s.commit().identifier() < failed
                                        && s.commit().kind() == CommitKind.COMPACT);
        // The commit whose COMPACT snapshot failed published its APPEND snapshot; the retry
        // after the restart must publish the compaction rather than count it as committed.
        assertThat(kindsOf(path, failed)).containsExactly(CommitKind.APPEND, CommitKind.COMPACT);
    }

    @ParameterizedTest
    @EnumSource(Publication.class)
    void failureAfterASnapshotIsPublishedIsNotCommittedTwice(Publication publication)
            throws Exception {
        FaultyFileSystem.arm(FaultyFileSystem.Mode.AFTER_PUBLISH, 3);
        String path = faultyPath(publication);
        runToEnd(Run.of(path));
        assertThat(FaultyFileSystem.failures()).isEqualTo(1);
        assertFinalRows(path);
        List<Snapshot> commits = assertCommitsInOrder(path);
        long failed = FaultyFileSystem.failedIdentifier();
        assertThat(commits)
                .as("snapshots published before the failing one")
                .filteredOn(s -> s.commit().identifier() < failed)
                .isNotEmpty();
        assertThat(kindsOf(path, failed))
                .as("the snapshot whose publication failed, published once")
                .isNotEmpty()
                .doesNotHaveDuplicates();
    }

    @Test
    void checkpointsCompletingWhileACommitIsPendingAreAllCommittedOnce() throws Exception {
        // What this tests is the committer's state, not how a snapshot file appears: one run,
        // through the publication local files use in production (the slowest test of the class).
        String path = faultyPath(Publication.LINK);
        // The third commit fails, but only once a later checkpoint has completed: the job then
        // restores from that checkpoint, whose state holds the committables of both.
        FaultyFileSystem.arm(
                FaultyFileSystem.Mode.BEFORE_PUBLISH,
                2,
                "APPEND",
                identifier -> COMPLETED.get() > identifier);
        start(Run.of(path).withSlowAcknowledgements(), 100).getJobExecutionResult().get();
        assertThat(FaultyFileSystem.failures()).isEqualTo(1);
        assertThat(FaultyFileSystem.released()).as("a later checkpoint completed").isTrue();
        assertFinalRows(path);
        List<Snapshot> commits = assertCommitsInOrder(path);
        long pending = FaultyFileSystem.failedIdentifier();
        assertThat(commits)
                .as("APPEND snapshots published before the failing one")
                .filteredOn(
                        s ->
                                s.commit().identifier() < pending
                                        && s.commit().kind() == CommitKind.APPEND)
                .hasSize(2);
        assertThat(commits)
                .as("the pending commit and the next checkpoint's, both once")
                .filteredOn(s -> s.commit().kind() == CommitKind.APPEND)
                .extracting(s -> s.commit().identifier())
                .contains(pending)
                .anyMatch(id -> id > pending);
    }

    @Test
    void stopWithSavepointAndRestoreWithAnotherParallelism() throws Exception {
        Run first = Run.of(localPath()).rate(RateLimiterStrategy.perSecond(4_000), CHANGES);
        JobClient client = start(first, 200);
        Path snapshots = new Path(localPath(), "snapshot");
        while (!FileIO.flinkFileSystems().exists(new Path(snapshots, "snapshot-3"))) {
            Thread.sleep(50);
        }
        String savepoint =
                client.stopWithSavepoint(
                                false,
                                new Path(dir.toURI() + "/savepoints").toString(),
                                SavepointFormatType.CANONICAL)
                        .get();
        long committedAtStop =
                table(localPath()).metadata().latestSnapshot().orElseThrow().records().total();
        assertThat(committedAtStop).isPositive();

        // The restored job only has to finish: at the default rate.
        runToEnd(
                first.restoring(3, savepoint)
                        .rate(RateLimiterStrategy.perSecond(10_000), first.inputLength()));
        assertFinalRows(localPath());
        assertCommitsInOrder(localPath());
    }

    @Test
    void compactionRunsInTheWriterAndIdleCheckpointsPublishNothing() throws Exception {
        // 5,000 changes a checkpoint, then ten checkpoints of input the job filters away.
        long perCheckpoint = 5_000;
        runToEnd(
                Run.of(localPath())
                        .rate(
                                RateLimiterStrategy.perCheckpoint((int) perCheckpoint),
                                CHANGES + 10 * perCheckpoint));
        assertFinalRows(localPath());
        List<Snapshot> commits = assertCommitsInOrder(localPath());
        assertThat(commits)
                .extracting(s -> s.commit().kind())
                .as("compactions ran during the job")
                .contains(CommitKind.COMPACT);
        long lastInput = LAST_INPUT.get();
        assertThat(LATEST.get()).as("idle checkpoints").isGreaterThanOrEqualTo(lastInput + 8);
        assertThat(commits)
                .filteredOn(s -> s.commit().identifier() > lastInput)
                .as("after the input: at most the compactions still running, one per bucket")
                .hasSizeLessThanOrEqualTo(4)
                .allMatch(s -> s.commit().kind() == CommitKind.COMPACT);
    }

    private static Table table(String path) {
        return Table.load(FileIO.flinkFileSystems(), new Path(path), "t");
    }

    /** The table holds the last version of every key not deleted last, and nothing else. */
    private static void assertFinalRows(String path) throws Exception {
        TableEnvironment batch = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        batch.executeSql(ddl(path));
        Map<Long, Long> expected = new TreeMap<>();
        for (long key = 0; key < KEYS; key++) {
            if (!deleted(key, VERSIONS - 1)) {
                expected.put(key, key * 100 + VERSIONS - 1);
            }
        }
        List<String> rows = TestJobs.rows(batch, "SELECT k, v FROM t");
        Map<Long, Long> actual = new TreeMap<>();
        for (String row : rows) {
            String[] kv = row.substring(3, row.length() - 1).split(", ");
            actual.put(Long.parseLong(kv[0]), Long.parseLong(kv[1]));
        }
        List<String> wrong = new ArrayList<>();
        for (long key = 0; key < KEYS; key++) {
            if (!Objects.equals(expected.get(key), actual.get(key))) {
                wrong.add(key + ": " + actual.get(key) + " instead of " + expected.get(key));
            }
        }
        assertThat(wrong).as("keys with a wrong final row").isEmpty();
        assertThat(rows).as("one row per key").hasSize(expected.size());
    }

    /**
     * Every snapshot of one commit user comes after the previous one: a greater identifier, or the
     * COMPACT snapshot right after the APPEND snapshot of the same commit. Returns the snapshots.
     */
    private static List<Snapshot> assertCommitsInOrder(String path) {
        TableMetadata snapshots = table(path).metadata();
        List<Snapshot> all = new ArrayList<>();
        Map<String, Snapshot> previousOfUser = new TreeMap<>();
        for (long id = 1; id <= snapshots.latestSnapshotId().orElseThrow(); id++) {
            Snapshot s = snapshots.snapshot(id);
            Snapshot previous = previousOfUser.put(s.commit().user(), s);
            if (previous != null) {
                boolean later = s.commit().identifier() > previous.commit().identifier();
                boolean compactionOfTheSameCommit =
                        s.commit().identifier() == previous.commit().identifier()
                                && previous.commit().kind() == CommitKind.APPEND
                                && s.commit().kind() == CommitKind.COMPACT;
                assertThat(later || compactionOfTheSameCommit)
                        .as("snapshot %d (%s) after %d (%s)", id, s.commit(), id - 1, previous)
                        .isTrue();
            }
            all.add(s);
        }
        return all;
    }

    private static List<CommitKind> kindsOf(String path, long identifier) {
        return assertCommitsInOrder(path).stream()
                .filter(s -> s.commit().identifier() == identifier)
                .map(s -> s.commit().kind())
                .toList();
    }

    /** Turns positions into changes and fails the job once, after a snapshot was published. */
    private static final class FailOnce implements MapFunction<Long, Row> {
        private final InjectedFailure failure;

        FailOnce(InjectedFailure failure) {
            this.failure = failure;
        }

        @Override
        public Row map(Long i) {
            failure.check(i);
            return change(i);
        }
    }

    /**
     * Passes numbers on and records checkpoints: the latest it took part in, the first after the
     * last change went by, and the latest completed. Its snapshots take {@code snapshotMillis}.
     */
    private static final class CheckpointProbe
            implements MapFunction<Long, Long>, CheckpointedFunction, CheckpointListener {

        private final long snapshotMillis;
        private boolean inputDone;

        CheckpointProbe(long snapshotMillis) {
            this.snapshotMillis = snapshotMillis;
        }

        @Override
        public Long map(Long i) {
            inputDone |= i >= CHANGES - 1;
            return i;
        }

        @Override
        public void snapshotState(FunctionSnapshotContext context) throws Exception {
            LATEST.accumulateAndGet(context.getCheckpointId(), Math::max);
            if (inputDone) {
                LAST_INPUT.compareAndSet(0, context.getCheckpointId());
            }
            Thread.sleep(snapshotMillis);
        }

        @Override
        public void initializeState(FunctionInitializationContext context) {}

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            COMPLETED.accumulateAndGet(checkpointId, Math::max);
        }
    }
}
