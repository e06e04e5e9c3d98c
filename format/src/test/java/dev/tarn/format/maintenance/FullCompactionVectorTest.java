package dev.tarn.format.maintenance;

import static dev.tarn.format.maintenance.VectorTables.commit;
import static dev.tarn.format.maintenance.VectorTables.fileId;
import static dev.tarn.format.maintenance.VectorTables.vectors;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.VectorChange;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.table.TableContext;
import dev.tarn.format.write.CommitMessage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Full compaction of a table with deletion vectors: it reads each input with the vector of the
 * snapshot it planned on, writes outputs without the deleted rows and without vectors, and lists
 * each input's vector as going, so the commit drops the input vectors with the inputs; a bucket
 * that is one run already is rewritten for its vectors; and a deletion a writer commits while the
 * compaction runs drops the compaction and is kept.
 */
class FullCompactionVectorTest {

    @TempDir Path dir;

    private Table table;
    private TableContext context;
    private String a;

    /**
     * Snapshot 1 adds file A (rows 1, 2, 3); 2 replaces row 1 (A's row 0 deleted, the new row in
     * B); 3 deletes row 2 (A's row 1).
     */
    @BeforeEach
    void threeSnapshots() {
        table = VectorTables.create(dir);
        context = TableInternals.context(table);
        a = commit(table, 1, List.of(1L, 2L, 3L), null).fileName();
        commit(table, 2, List.of(1L), a, 0);
        VectorTables.delete(table, "writer", 3, a, 1);
    }

    private Collection<ManifestEntry> liveFiles() {
        Snapshot latest = context.snapshotReader().latest().orElseThrow();
        return context.snapshotReader().liveFiles(latest).values();
    }

    private List<CommitMessage> compact(FullCompaction.Plan plan) throws Exception {
        List<CommitMessage> messages = new ArrayList<>();
        try (FullCompaction.Compactor compactor = new FullCompaction.Compactor(context)) {
            for (FullCompaction.Unit unit : plan.units()) {
                messages.addAll(compactor.compact(unit));
            }
        }
        return messages;
    }

    @Test
    void readsItsInputsWithTheirVectorsAndDropsTheVectorsWithTheInputs() throws Exception {
        FullCompaction.Plan plan = FullCompaction.plan(context, p -> true).orElseThrow();
        DeletionFile vector = vectors(table).get(fileId(a));
        assertThat(plan.units())
                .singleElement()
                .satisfies(u -> assertThat(u.vectors()).containsExactly(entry(a, vector)));

        List<CommitMessage> messages = compact(plan);

        assertThat(messages)
                .singleElement()
                .satisfies(
                        m ->
                                assertThat(m.vectors())
                                        .containsExactly(new VectorChange(a, vector, null)));
        FullCompaction.Result result = FullCompaction.publish(context, plan, messages);
        assertThat(result.summary())
                .isEqualTo("Compacted 1 bucket of table db.t into snapshot 4 (2 files into 1)");
        assertThat(vectors(table)).isEmpty();
        assertThat(context.snapshotReader().latest().orElseThrow().indexManifest()).isNull();
        // Row 1 of B, and row 3 of A: the rows A's vector deleted are not written again.
        assertThat(liveFiles())
                .singleElement()
                .satisfies(e -> assertThat(e.file().rowCount()).isEqualTo(2));
        assertThat(TestTables.readAll(table)).containsExactly("1,v1", "3,v3");
    }

    @Test
    void aBucketThatIsOneRunAlreadyIsRewrittenForItsVectors() {
        FullCompaction.run(context);
        DataFile compacted = liveFiles().iterator().next().file();
        VectorTables.delete(table, "writer", 5, compacted.fileName(), 0);

        FullCompaction.Plan plan = FullCompaction.plan(context, p -> true).orElseThrow();
        assertThat(plan.units()).hasSize(1);
        FullCompaction.Result result = FullCompaction.run(context).orElseThrow();

        assertThat(result.summary())
                .isEqualTo("Compacted 1 bucket of table db.t into snapshot 6 (1 file into 1)");
        assertThat(vectors(table)).isEmpty();
        assertThat(TestTables.readAll(table)).containsExactly("3,v3");
        assertThat(FullCompaction.plan(context, p -> true).orElseThrow().units()).isEmpty();
    }

    @Test
    void aDeletionCommittedWhileItRanDropsTheCompactionAndIsKept() throws Exception {
        FullCompaction.Plan plan = FullCompaction.plan(context, p -> true).orElseThrow();
        List<CommitMessage> messages = compact(plan);
        DeletionFile read = vectors(table).get(fileId(a));
        DeletionFile newer = VectorTables.delete(table, "writer", 4, a, 2);

        FullCompaction.Result result = FullCompaction.publish(context, plan, messages);

        assertThat(result.snapshotId()).isEmpty();
        assertThat(result.summary())
                .isEqualTo(
                        "Compacted no bucket of table db.t: writers changed the 1 bucket it"
                                + " compacted while it ran (the deletion vector of data file "
                                + a
                                + " of bucket 0 of partition [] changed since this commit's"
                                + " writer read it: it was "
                                + read
                                + ", it is "
                                + newer
                                + " (another commit deleted rows of the file first)); the table"
                                + " is unchanged, call compact again");
        assertThat(vectors(table)).containsEntry(fileId(a), newer);
        assertThat(liveFiles()).hasSize(2);
        for (CommitMessage m : messages) {
            for (DataFile f : m.newFiles()) {
                assertThat(dir.resolve("bucket-0").resolve(f.fileName())).doesNotExist();
            }
        }
    }

    private static java.util.Map.Entry<String, DeletionFile> entry(String file, DeletionFile v) {
        return java.util.Map.entry(file, v);
    }
}
