package dev.tarn.format.commit;

import static dev.tarn.format.TestTables.ID_V_DT;
import static dev.tarn.format.TestTables.row;
import static dev.tarn.format.TestTables.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.deletion.DeletionVector;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.VectorChange;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.table.TableContext;
import dev.tarn.format.write.CommitMessage;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Commits that change deletion vectors (SPEC.md, "Commits with vectors"): the snapshot's index
 * manifest names exactly the vectors of its live files, and a change made on a vector that another
 * commit changed (or on a file it removed) never silently wins.
 */
class VectorCommitTest {

    @TempDir java.nio.file.Path tempDir;

    private Table table;
    private TableContext context;

    private void create() {
        table =
                TestTables.create(
                        FileIO.flinkFileSystems(),
                        new Path(tempDir.toUri()),
                        ID_V_DT,
                        List.of("dt"),
                        Map.of());
        context = TableInternals.context(table);
    }

    /** One data file committed by user "a"; its message. */
    private CommitMessage oneFile() {
        CommitMessage m = write(table, List.of(row(1L, "a", "x"), row(2L, "b", "x"))).get(0);
        try (TableCommit commit = new TableCommit(context, "a")) {
            commit.commit(CommitRequest.of(1, List.of(m)));
        }
        return m;
    }

    private DeletionFile vector(String dataFile, long... positions) throws IOException {
        return context.indexFiles()
                .write(Map.of(dataFile, DeletionVector.of(positions)))
                .get(dataFile);
    }

    private static CommitMessage change(CommitMessage on, VectorChange... changes) {
        return new CommitMessage(
                        on.partition(), on.bucket(), on.totalBuckets(), List.of(), List.of())
                .withVectors(List.of(changes));
    }

    private Map<ManifestEntry.FileId, DeletionFile> vectors() {
        Snapshot latest = context.snapshotReader().latest().orElseThrow();
        return context.snapshotReader().vectors(latest);
    }

    @Test
    void aSnapshotNamesTheVectorsOfItsLiveFilesAndReadsThemBack() throws IOException {
        create();
        CommitMessage m = oneFile();
        String file = m.newFiles().get(0).fileName();
        DeletionFile v = vector(file, 1);
        try (TableCommit commit = new TableCommit(context, "w")) {
            commit.commit(CommitRequest.of(1, List.of(change(m, new VectorChange(file, null, v)))));
        }
        assertThat(vectors())
                .containsExactly(
                        Map.entry(new ManifestEntry.FileId(m.partition(), m.bucket(), file), v));
        assertThat(context.indexFiles().read(file, v)).isEqualTo(DeletionVector.of(1));

        // A commit that changes no vector names the same index manifest.
        String index = context.snapshotReader().latest().orElseThrow().indexManifest();
        try (TableCommit commit = new TableCommit(context, "other")) {
            commit.commit(CommitRequest.of(1, write(table, List.of(row(3L, "c", "x")))));
        }
        assertThat(context.snapshotReader().latest().orElseThrow().indexManifest())
                .isEqualTo(index);
    }

    @Test
    void aChangeOnAVectorAnotherCommitChangedFailsNamingTheFileAndBothVectors() throws IOException {
        create();
        CommitMessage m = oneFile();
        String file = m.newFiles().get(0).fileName();
        DeletionFile first = vector(file, 0);
        DeletionFile second = vector(file, 1);
        try (TableCommit commit = new TableCommit(context, "w1")) {
            commit.commit(
                    CommitRequest.of(1, List.of(change(m, new VectorChange(file, null, first)))));
        }
        try (TableCommit commit = new TableCommit(context, "w2")) {
            assertThatThrownBy(
                            () ->
                                    commit.commit(
                                            CommitRequest.of(
                                                    1,
                                                    List.of(
                                                            change(
                                                                    m,
                                                                    new VectorChange(
                                                                            file, null, second))))))
                    .isInstanceOf(CommitConflictException.class)
                    .hasMessageContaining("Cannot commit to table")
                    .hasMessageContaining("the deletion vector of data file " + file)
                    .hasMessageContaining("it was none, it is " + first);
        }
        assertThat(vectors()).containsValue(first).hasSize(1);
    }

    @Test
    void aCompactionOfAFileWhoseVectorChangedIsDroppedAndTheDeletionStays() throws IOException {
        create();
        CommitMessage m = oneFile();
        DataFile input = m.newFiles().get(0);
        // The compaction read the file without a vector; a writer then deleted row 0.
        CommitMessage output = write(table, List.of(row(1L, "a", "x"), row(2L, "b", "x"))).get(0);
        CommitMessage compaction =
                new CommitMessage(
                        m.partition(),
                        m.bucket(),
                        m.totalBuckets(),
                        output.newFiles(),
                        List.of(input));
        DeletionFile v = vector(input.fileName(), 0);
        try (TableCommit commit = new TableCommit(context, "writer")) {
            commit.commit(
                    CommitRequest.of(
                            1, List.of(change(m, new VectorChange(input.fileName(), null, v)))));
        }
        try (TableCommit commit = new TableCommit(context, "compactor")) {
            TableCommit.Result result = commit.commit(CommitRequest.of(1, List.of(compaction)));
            assertThat(result.droppedCompactions()).containsExactly(compaction);
        }
        assertThat(vectors()).containsValue(v);
        assertThat(context.snapshotReader().liveFiles(context.snapshotReader().latest().get()))
                .containsKey(new ManifestEntry.FileId(m.partition(), m.bucket(), input.fileName()));
    }

    @Test
    void aCompactionDropsTheVectorsOfItsInputsAndAChangeOnAGoneFileFails() throws IOException {
        create();
        CommitMessage m = oneFile();
        DataFile input = m.newFiles().get(0);
        DeletionFile v = vector(input.fileName(), 0);
        try (TableCommit commit = new TableCommit(context, "writer")) {
            commit.commit(
                    CommitRequest.of(
                            1, List.of(change(m, new VectorChange(input.fileName(), null, v)))));
        }
        CommitMessage output = write(table, List.of(row(2L, "b", "x"))).get(0);
        CommitMessage compaction =
                new CommitMessage(
                                m.partition(),
                                m.bucket(),
                                m.totalBuckets(),
                                output.newFiles(),
                                List.of(input))
                        .withVectors(List.of(new VectorChange(input.fileName(), v, null)));
        try (TableCommit commit = new TableCommit(context, "compactor")) {
            assertThat(commit.commit(CommitRequest.of(1, List.of(compaction))).droppedCompactions())
                    .isEmpty();
        }
        assertThat(context.snapshotReader().latest().orElseThrow().indexManifest()).isNull();

        DeletionFile more = vector(input.fileName(), 0, 1);
        try (TableCommit commit = new TableCommit(context, "writer")) {
            assertThatThrownBy(
                            () ->
                                    commit.commit(
                                            CommitRequest.of(
                                                    2,
                                                    List.of(
                                                            change(
                                                                    m,
                                                                    new VectorChange(
                                                                            input.fileName(),
                                                                            v,
                                                                            more))))))
                    .isInstanceOf(CommitConflictException.class)
                    .hasMessageContaining(
                            "data file " + input.fileName() + " of bucket 0 of partition")
                    .hasMessageContaining("is no longer in the table")
                    .hasMessageContaining("the 2 deleted rows");
        }
    }
}
