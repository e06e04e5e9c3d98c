package dev.tarn.format.commit;

import static dev.tarn.format.TestTables.ID_V;
import static dev.tarn.format.TestTables.append;
import static dev.tarn.format.TestTables.readAll;
import static dev.tarn.format.TestTables.row;
import static dev.tarn.format.TestTables.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.io.FaultInjectingFileIO;
import dev.tarn.format.io.FaultInjectingFileIO.Op;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.io.TablePaths;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.ManifestEntry.FileKind;
import dev.tarn.format.manifest.ManifestList.ManifestFileMeta;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.Snapshot.CommitKind;
import dev.tarn.format.snapshot.SnapshotCommit;
import dev.tarn.format.snapshot.SnapshotManager;
import dev.tarn.format.write.CommitMessage;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Many committers on one table: every commit gets its own snapshot id, none is lost. */
class ConcurrentCommitTest {

    private static final int THREADS = 8;
    private static final int COMMITS_PER_THREAD = 20;

    @TempDir java.nio.file.Path tempDir;

    @Test
    void concurrentAppendsGetGaplessSnapshotIdsAndLoseNoFile() throws Exception {
        Path location = new Path(tempDir.toUri());
        Table table =
                TestTables.create(
                        FileIO.flinkFileSystems(),
                        location,
                        ID_V,
                        List.of(),
                        Map.of("commit.retry-wait", "1 ms", "commit.max-retries", "10000"));
        CyclicBarrier start = new CyclicBarrier(THREADS);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        List<Future<List<CommitMessage>>> results = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            results.add(
                    pool.submit(
                            () -> {
                                // Each thread loads its own table, as a separate job would.
                                Table own = Table.load(FileIO.flinkFileSystems(), location, "db.t");
                                List<List<CommitMessage>> prepared = new ArrayList<>();
                                for (int i = 0; i < COMMITS_PER_THREAD; i++) {
                                    prepared.add(write(own, rows(thread, i)));
                                }
                                start.await(30, TimeUnit.SECONDS);
                                TableCommit commit = own.newCommit("writer-" + thread);
                                List<CommitMessage> committed = new ArrayList<>();
                                for (int i = 0; i < COMMITS_PER_THREAD; i++) {
                                    assertThat(
                                                    commit.commit(
                                                                    CommitRequest.of(
                                                                            i + 1, prepared.get(i)))
                                                            .snapshotId())
                                            .isPresent();
                                    committed.addAll(prepared.get(i));
                                }
                                return committed;
                            }));
        }
        pool.shutdown();
        assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        Set<String> committedFiles = new HashSet<>();
        long committedRows = 0;
        for (Future<List<CommitMessage>> result : results) {
            for (CommitMessage m : result.get()) {
                for (var file : m.newFiles()) {
                    assertThat(committedFiles.add(file.fileName())).isTrue();
                    committedRows += file.rowCount();
                }
            }
        }
        int commits = THREADS * COMMITS_PER_THREAD;
        assertThat(committedFiles).hasSize(commits);

        assertThat(snapshotIds())
                .containsExactlyElementsOf(LongStream.rangeClosed(1, commits).boxed().toList());
        SnapshotManager snapshots = TableInternals.context(table).snapshotManager();
        Set<String> commitsSeen = new HashSet<>();
        long total = 0;
        for (long id = 1; id <= commits; id++) {
            Snapshot s = snapshots.snapshot(id);
            total += s.records().delta();
            assertThat(s.records().total()).as("total of snapshot %d", id).isEqualTo(total);
            assertThat(s.commit().kind()).isEqualTo(CommitKind.APPEND);
            assertThat(commitsSeen.add(s.commit().user() + "/" + s.commit().identifier()))
                    .as("commit %s/%d published once", s.commit().user(), s.commit().identifier())
                    .isTrue();
        }
        assertThat(commitsSeen).hasSize(commits);
        assertThat(total).isEqualTo(committedRows);

        // Every committed file is added exactly once across the manifests of the last snapshot.
        Snapshot latest = snapshots.latest();
        List<String> added = new ArrayList<>();
        for (ManifestFileMeta meta :
                TableInternals.context(table).snapshotReader().manifests(latest)) {
            for (ManifestEntry e :
                    TableInternals.context(table).manifestFile().read(meta.fileName())) {
                assertThat(e.kind()).isEqualTo(FileKind.ADD);
                added.add(e.file().fileName());
            }
        }
        assertThat(added)
                .doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(committedFiles);
        assertThat(readAll(table)).hasSize((int) committedRows);
    }

    @Test
    void lostRaceWithoutRetriesFailsWithConflictAndLeavesNoTrace() throws IOException {
        FaultInjectingFileIO io = new FaultInjectingFileIO();
        Path location = new Path(tempDir.toUri());
        Table table =
                TestTables.create(io, location, ID_V, List.of(), Map.of("commit.max-retries", "0"));
        append(table, 1, List.of(row(1L, "a")));
        Set<String> manifestsBefore = manifestDir();
        List<CommitMessage> messages = write(table, List.of(row(2L, "b")));
        io.beforeNth(Op.LINK, exactly("snapshot-2"), 1, ConcurrentCommitTest::race);

        assertThatThrownBy(
                        () ->
                                TestTables.commit(table, "user", CommitRequest.of(2, messages))
                                        .snapshotId())
                .isInstanceOf(CommitConflictException.class)
                .hasMessage(
                        "Cannot commit to table db.t: lost the race for a new snapshot 1 times in"
                                + " a row (commit.max-retries = 0); other writers commit too"
                                + " often");

        Snapshot latest = TableInternals.context(table).snapshotManager().latest();
        assertThat(latest.id()).isEqualTo(2);
        assertThat(latest.commit().user()).isEqualTo("racer");
        assertThat(readAll(table)).containsExactly("1,a");
        assertThat(manifestDir()).isEqualTo(manifestsBefore);
    }

    @Test
    void lostRaceWithRetriesCommitsAsTheNextSnapshot() {
        FaultInjectingFileIO io = new FaultInjectingFileIO();
        Path location = new Path(tempDir.toUri());
        Table table =
                TestTables.create(
                        io, location, ID_V, List.of(), Map.of("commit.retry-wait", "1 ms"));
        append(table, 1, List.of(row(1L, "a")));
        io.beforeNth(Op.LINK, exactly("snapshot-2"), 1, ConcurrentCommitTest::race);

        assertThat(
                        TestTables.commit(
                                        table,
                                        "user",
                                        CommitRequest.of(2, write(table, List.of(row(2L, "b")))))
                                .snapshotId())
                .hasValue(3);

        assertThat(io.calls(Op.LINK, FaultInjectingFileIO.named("snapshot-"))).isEqualTo(3);
        assertThat(TableInternals.context(table).snapshotManager().snapshot(2).commit().user())
                .isEqualTo("racer");
        Snapshot mine = TableInternals.context(table).snapshotManager().snapshot(3);
        assertThat(mine.commit().user()).isEqualTo("user");
        assertThat(mine.records().total()).isEqualTo(2);
        assertThat(readAll(table)).containsExactly("1,a", "2,b");
    }

    /** Another committer publishes an empty snapshot under the id about to be created. */
    private static void race(Path snapshotPath, FileIO real) throws IOException {
        Path tableLocation = snapshotPath.getParent().getParent();
        SnapshotCommit publisher = SnapshotCommit.forFileSystem(real);
        SnapshotManager snapshots =
                new SnapshotManager(real, TablePaths.of(tableLocation), "db.t", publisher);
        long id = Long.parseLong(snapshotPath.getName().substring("snapshot-".length()));
        Snapshot previous = snapshots.snapshot(id - 1);
        Snapshot racer =
                new Snapshot(
                        id,
                        previous.schemaId(),
                        previous.baseManifestList(),
                        previous.deltaManifestList(),
                        new Snapshot.Commit(
                                "racer", 1, CommitKind.APPEND, System.currentTimeMillis(), null),
                        new Snapshot.RecordCounts(previous.records().total(), 0));
        assertThat(snapshots.tryCommit(racer)).isTrue();
    }

    private static java.util.function.Predicate<Path> exactly(String name) {
        return p -> p.getName().equals(name);
    }

    private static List<GenericRowData> rows(int thread, int commit) {
        List<GenericRowData> rows = new ArrayList<>();
        for (int r = 0; r <= commit % 3; r++) {
            rows.add(row(thread * 1000L + commit * 10L + r, "t" + thread));
        }
        return rows;
    }

    private List<Long> snapshotIds() throws IOException {
        try (Stream<java.nio.file.Path> files = Files.list(tempDir.resolve("snapshot"))) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("snapshot-"))
                    .map(n -> Long.parseLong(n.substring("snapshot-".length())))
                    .sorted()
                    .toList();
        }
    }

    private Set<String> manifestDir() throws IOException {
        try (Stream<java.nio.file.Path> files = Files.list(tempDir.resolve("manifest"))) {
            return files.map(p -> p.getFileName().toString())
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }
}
