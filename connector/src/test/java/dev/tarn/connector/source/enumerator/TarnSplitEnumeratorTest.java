package dev.tarn.connector.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.connector.source.split.TarnSplit;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.read.Split;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.api.connector.source.mocks.MockSplitEnumeratorContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The enumerator of a read of one snapshot, whose readers ask for several splits at once (one per
 * fetcher thread): every split goes to exactly one reader, and a reader told that none is left is
 * never given one afterwards, even when a failed reader's splits come back, since it may have
 * ended; the failed reader takes them when it registers again and asks.
 */
class TarnSplitEnumeratorTest {

    private final MockSplitEnumeratorContext<TarnSplit> context =
            new MockSplitEnumeratorContext<>(2);

    /** Registers {@code subtasks} with {@code context}, as Flink does before they ask. */
    private static void register(MockSplitEnumeratorContext<TarnSplit> context, int... subtasks) {
        for (int subtask : subtasks) {
            context.registerReader(new ReaderInfo(subtask, "localhost"));
        }
    }

    @AfterEach
    void close() throws Exception {
        context.close();
    }

    private static List<TarnSplit> splits(int count) {
        List<TarnSplit> splits = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            splits.add(
                    TarnSplit.of(
                            String.valueOf(i),
                            new Split(7, Partition.of("p"), i, 4, List.of()),
                            1_000L));
        }
        return splits;
    }

    /** The ids of the splits assigned to {@code subtask} so far, in order. */
    private List<String> assignedTo(int subtask) {
        List<String> ids = new ArrayList<>();
        for (SplitsAssignment<TarnSplit> assignment : context.getSplitsAssignmentSequence()) {
            assignment
                    .assignment()
                    .getOrDefault(subtask, List.of())
                    .forEach(s -> ids.add(s.splitId()));
        }
        return ids;
    }

    @Test
    void aReaderToldThatNoSplitIsLeftGetsNoneOfAFailedReadersSplits() {
        TarnSplitEnumerator enumerator = new TarnSplitEnumerator(context, splits(4), null);
        enumerator.addReader(0);
        enumerator.addReader(1);
        // Reader 1 asks for three (its lanes), then reader 0 for three.
        for (int i = 0; i < 3; i++) {
            enumerator.handleSplitRequest(1, null);
        }
        for (int i = 0; i < 3; i++) {
            enumerator.handleSplitRequest(0, null);
        }
        assertThat(assignedTo(1)).containsExactly("0", "1", "2");
        assertThat(assignedTo(0)).containsExactly("3");
        assertThat(context.hasNoMoreSplits(0)).isTrue();
        assertThat(context.hasNoMoreSplits(1)).isFalse();

        // Reader 1 fails: its splits come back. Reader 0 was told it has none left; a request it
        // sent before it knew (or any later one) gets nothing.
        enumerator.addSplitsBack(List.of(splits(4).get(0), splits(4).get(2)), 1);
        enumerator.handleSplitRequest(0, null);
        assertThat(assignedTo(0)).containsExactly("3");

        // Reader 1 restarts, registers and asks: it reads them again, then is told the end.
        enumerator.addReader(1);
        for (int i = 0; i < 3; i++) {
            enumerator.handleSplitRequest(1, null);
        }
        assertThat(assignedTo(1)).containsExactly("0", "1", "2", "0", "2");
        assertThat(context.hasNoMoreSplits(1)).isTrue();
        assertThat(enumerator.snapshotState(1).pending()).isEmpty();
    }

    @Test
    void theFirstReaderToAskLeavesASplitToEachReaderThatHasNone() {
        // Two files, two readers of two lanes each: one file each, not both to the first to ask.
        TarnSplitEnumerator enumerator = new TarnSplitEnumerator(context, splits(2), null);
        register(context, 0);
        enumerator.addReader(0);
        enumerator.handleSplitRequest(0, null);
        enumerator.handleSplitRequest(0, null);
        assertThat(assignedTo(0)).containsExactly("0");
        assertThat(context.hasNoMoreSplits(0)).isFalse();

        // Reader 1 registers late and asks: it gets the other, and then both readers hear the end.
        register(context, 1);
        enumerator.addReader(1);
        enumerator.handleSplitRequest(1, null);
        assertThat(assignedTo(1)).containsExactly("1");
        assertThat(context.hasNoMoreSplits(0)).isTrue();
        enumerator.handleSplitRequest(1, null);
        assertThat(context.hasNoMoreSplits(1)).isTrue();
        assertThat(assignedTo(0)).containsExactly("0");
    }

    @Test
    void aWaitingRequestTakesASplitThatComesBackOrIsLeftOver() {
        TarnSplitEnumerator enumerator = new TarnSplitEnumerator(context, splits(3), null);
        register(context, 0, 1);
        enumerator.handleSplitRequest(0, null);
        enumerator.handleSplitRequest(0, null);
        // Three splits, reader 1 has none: reader 0 may take a second one, and a third waits.
        enumerator.handleSplitRequest(0, null);
        assertThat(assignedTo(0)).containsExactly("0", "1");
        enumerator.handleSplitRequest(1, null);
        enumerator.handleSplitRequest(1, null);
        assertThat(assignedTo(1)).containsExactly("2");
        assertThat(context.hasNoMoreSplits(0)).isTrue();
        assertThat(context.hasNoMoreSplits(1)).isTrue();

        // Alone in a read of one split, a reader of one lane per split takes every split.
        MockSplitEnumeratorContext<TarnSplit> alone = new MockSplitEnumeratorContext<>(1);
        TarnSplitEnumerator one = new TarnSplitEnumerator(alone, splits(2), null);
        one.handleSplitRequest(0, null);
        one.handleSplitRequest(0, null);
        assertThat(alone.getSplitsAssignmentSequence()).hasSize(2);
    }

    @Test
    void aWaitingRequestOfAFailedReaderIsDroppedAndOneTakesASplitThatComesBack() {
        TarnSplitEnumerator enumerator = new TarnSplitEnumerator(context, splits(2), null);
        register(context, 0, 1);
        enumerator.handleSplitRequest(0, null);
        enumerator.handleSplitRequest(0, null);
        // Reader 0 fails while its second request waits: its split comes back, and the reader
        // asks again once restarted, as if for the first time.
        enumerator.addSplitsBack(List.of(splits(2).get(0)), 0);
        enumerator.addReader(0);
        enumerator.handleSplitRequest(0, null);
        enumerator.handleSplitRequest(0, null);
        assertThat(assignedTo(0)).containsExactly("0", "1");
        enumerator.handleSplitRequest(1, null);
        assertThat(assignedTo(1)).containsExactly("0");
        assertThat(context.hasNoMoreSplits(0)).isTrue();

        // Three readers, three splits: reader 0's second request waits while readers 1 and 2 have
        // none and no split is left over, and takes one once reader 1 fails and its comes back.
        try (MockSplitEnumeratorContext<TarnSplit> three = new MockSplitEnumeratorContext<>(3)) {
            TarnSplitEnumerator e = new TarnSplitEnumerator(three, splits(3), null);
            register(three, 0, 1, 2);
            e.handleSplitRequest(0, null);
            e.handleSplitRequest(0, null);
            e.handleSplitRequest(1, null);
            assertThat(three.getSplitsAssignmentSequence()).hasSize(2);
            e.addSplitsBack(List.of(splits(3).get(1)), 1);
            assertThat(three.getSplitsAssignmentSequence()).hasSize(3);
            assertThat(three.getSplitsAssignmentSequence().get(2).assignment()).containsOnlyKeys(0);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
