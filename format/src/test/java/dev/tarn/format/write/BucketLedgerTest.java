package dev.tarn.format.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.lsm.tree.BucketTreeWriter;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DataFile.ColumnStats;
import dev.tarn.format.manifest.DataFile.SequenceRange;
import dev.tarn.format.manifest.FileContent;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Telling a writer's own changes to a bucket from another writer's, snapshot by snapshot. */
class BucketLedgerTest {

    private static DataFile file(String name) {
        return new DataFile(
                name,
                FileContent.DATA,
                10,
                1,
                0,
                0,
                new SequenceRange(0, 0),
                new ColumnStats(new Object[0], new Object[0], new long[0]),
                null);
    }

    private static BucketTreeWriter.Changes changes(
            List<String> newFiles, List<String> before, List<String> after) {
        return new BucketTreeWriter.Changes(
                newFiles.stream().map(BucketLedgerTest::file).toList(),
                before.stream().map(BucketLedgerTest::file).toList(),
                after.stream().map(BucketLedgerTest::file).toList(),
                List.of(),
                List.of(),
                List.of(),
                List.of());
    }

    private static PublishedFiles.Change change(List<String> added, List<String> deleted) {
        return new PublishedFiles.Change(added, deleted);
    }

    @Test
    void theWritersOwnAppendsAndCompactionsAreItsOwn() {
        BucketLedger ledger = new BucketLedger();
        ledger.handedOut(changes(List.of("n1"), List.of("old", "n1"), List.of("c1")));
        assertThat(ledger.observe(change(List.of("n1"), List.of()))).isTrue();
        assertThat(ledger.observe(change(List.of("c1"), List.of("old", "n1")))).isTrue();
        assertThat(ledger.settled(name -> true)).isTrue();
    }

    @Test
    void twoCheckpointsCommittedTogetherWithChainedCompactionsAreItsOwn() {
        BucketLedger ledger = new BucketLedger();
        ledger.handedOut(changes(List.of("n1"), List.of("a", "b"), List.of("g")));
        ledger.handedOut(changes(List.of("n2"), List.of("g", "n1"), List.of("h")));
        assertThat(ledger.settled(name -> true)).as("compactions pending").isFalse();
        assertThat(ledger.observe(change(List.of("n1", "n2"), List.of()))).isTrue();
        assertThat(ledger.observe(change(List.of("g", "h"), List.of("a", "b", "g", "n1"))))
                .isTrue();
        assertThat(ledger.settled(name -> true)).isTrue();
    }

    @Test
    void aCompactionWithoutOutputsIsSeenByItsDeletes() {
        BucketLedger ledger = new BucketLedger();
        ledger.handedOut(changes(List.of(), List.of("a", "b"), List.of()));
        assertThat(ledger.observe(change(List.of(), List.of("a", "b")))).isTrue();
    }

    @Test
    void anotherWritersFilesAndDeletesAreForeignAndDoomTheCompactionsTheyTouch() {
        BucketLedger ledger = new BucketLedger();
        ledger.handedOut(changes(List.of("n1"), List.of("a", "b"), List.of("g")));
        ledger.handedOut(changes(List.of(), List.of("g", "c"), List.of("h")));
        // A compaction job replaced a and c before this writer's commit.
        assertThat(ledger.observe(change(List.of("x"), List.of("a", "c")))).isFalse();
        assertThat(ledger.observe(change(List.of("n1"), List.of()))).isTrue();
        // Both compactions can no longer apply: the first lost a, the second its input g.
        assertThat(ledger.settled(name -> true)).isTrue();
        List<DataFile> view = ledger.rebuild(List.of(file("x"), file("b")));
        assertThat(view).extracting(DataFile::fileName).containsExactlyInAnyOrder("x", "b");
    }

    @Test
    void aCompactionWhoseInputsAreLiveMayStillBePublished() {
        BucketLedger ledger = new BucketLedger();
        ledger.handedOut(changes(List.of("n1"), List.of("a", "b"), List.of("g")));
        assertThat(ledger.observe(change(List.of("y"), List.of()))).isFalse();
        assertThat(ledger.settled(name -> true)).isFalse();
        // The commit that dropped it (it lost the race too often) deleted its output.
        assertThat(ledger.settled(name -> !name.equals("g"))).isTrue();
    }

    @Test
    void aRebuiltViewKeepsNewFilesNotYetPublished() {
        BucketLedger ledger = new BucketLedger();
        ledger.handedOut(changes(List.of("n1", "n2"), List.of(), List.of()));
        assertThat(ledger.observe(change(List.of("n1"), List.of("z")))).isFalse();
        List<DataFile> view = ledger.rebuild(List.of(file("n1"), file("k")));
        assertThat(view)
                .extracting(DataFile::fileName)
                .containsExactlyInAnyOrderElementsOf(Set.of("n1", "k", "n2"));
    }
}
