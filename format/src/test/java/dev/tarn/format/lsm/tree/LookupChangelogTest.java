package dev.tarn.format.lsm.tree;

import static dev.tarn.format.lsm.tree.LookupBucket.change;
import static org.apache.flink.types.RowKind.DELETE;
import static org.apache.flink.types.RowKind.INSERT;
import static org.apache.flink.types.RowKind.UPDATE_AFTER;
import static org.apache.flink.types.RowKind.UPDATE_BEFORE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.lsm.lookup.RowPages;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.schema.MergeEngine;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The changelog a bucket writes with {@code changelog-producer} = {@code lookup}, per merge engine:
 * each commit's changes of the rows, the old row of a key from the files before the commit.
 */
class LookupChangelogTest {

    private static final long AMPLE = 64L << 20;

    @TempDir java.nio.file.Path dir;
    private final ExecutorService compactions = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        compactions.shutdownNow();
    }

    private LookupBucket bucket(MergeEngine engine, Map<String, String> options) {
        return bucket(engine, options, AMPLE, List.of());
    }

    private LookupBucket bucket(
            MergeEngine engine, Map<String, String> options, long memory, List<DataFile> files) {
        return new LookupBucket(
                dir,
                engine,
                options,
                ChangelogSetup.lookup(memory),
                1 << 20,
                compactions,
                files,
                1);
    }

    /** A writer that starts without the bucket's files, numbering changes above theirs. */
    private LookupBucket restoring(List<DataFile> published) {
        long first = 1 + published.stream().mapToLong(f -> f.sequence().max()).max().orElse(0);
        return new LookupBucket(
                dir,
                MergeEngine.DEDUPLICATE,
                Map.of(),
                ChangelogSetup.lookup(AMPLE),
                1 << 20,
                compactions,
                List.of(),
                first);
    }

    @Test
    void deduplicateEmitsInsertsUpdatePairsAndDeletesWithTheOldRow() throws Exception {
        try (LookupBucket b = bucket(MergeEngine.DEDUPLICATE, Map.of())) {
            b.write(change(INSERT, 1, 10L, "x"), change(INSERT, 2, 20L, "y"));
            b.write(change(INSERT, 3, 30L, "z"), change(UPDATE_AFTER, 1, 11L, "x"));
            assertThat(b.commit())
                    .as("new keys, the later version of key 1 only")
                    .containsExactly("+I[1, 11, x]", "+I[2, 20, y]", "+I[3, 30, z]");

            b.write(change(UPDATE_AFTER, 1, 12L, "x"), change(DELETE, 2, 20L, "y"));
            b.write(change(INSERT, 3, 30L, "z"), change(DELETE, 9, 0L, "gone"));
            b.write(change(UPDATE_BEFORE, 4, 0L, "q"), change(INSERT, 5, null, null));
            assertThat(b.commit())
                    .as("the same row again and deletes of missing keys emit nothing")
                    .containsExactly(
                            "-U[1, 11, x]", "+U[1, 12, x]", "-D[2, 20, y]", "+I[5, null, null]");

            b.write(change(DELETE, 1, 99L, "whatever"), change(INSERT, 2, 21L, "y"));
            assertThat(b.commit())
                    .as("a delete carries the row it removes, not the one given")
                    .containsExactly("-D[1, 12, x]", "+I[2, 21, y]");
            assertThat(b.commit()).as("nothing written, nothing emitted").isEmpty();
        }
    }

    @Test
    void partialUpdateEmitsTheMergedRows() throws Exception {
        try (LookupBucket b = bucket(MergeEngine.PARTIAL_UPDATE, Map.of())) {
            b.write(change(INSERT, 1, 10L, null));
            assertThat(b.commit()).containsExactly("+I[1, 10, null]");
            b.write(change(INSERT, 1, null, "x"), change(INSERT, 2, null, "y"));
            assertThat(b.commit())
                    .containsExactly("-U[1, 10, null]", "+U[1, 10, x]", "+I[2, null, y]");
            b.write(change(INSERT, 1, null, "x"));
            assertThat(b.commit()).as("fills in nothing new").isEmpty();
        }
    }

    @Test
    void aggregationEmitsTheAggregatesBeforeAndAfter() throws Exception {
        Map<String, String> sum = Map.of("fields.a.aggregate-function", "sum");
        try (LookupBucket b = bucket(MergeEngine.AGGREGATION, sum)) {
            b.write(change(INSERT, 1, 10L, "x"), change(INSERT, 1, 5L, "y"));
            assertThat(b.commit()).containsExactly("+I[1, 15, y]");
            b.write(change(UPDATE_BEFORE, 1, 5L, "y"), change(UPDATE_AFTER, 1, 7L, "z"));
            b.write(change(INSERT, 2, 1L, "w"));
            assertThat(b.commit())
                    .as("a retraction subtracts; the key's other field takes the newest value")
                    .containsExactly("-U[1, 15, y]", "+U[1, 17, z]", "+I[2, 1, w]");
            b.write(change(DELETE, 2, 1L, "w"));
            assertThat(b.commit())
                    .as(
                            "an aggregated key never goes: a delete is an update, to what a read merges")
                    .containsExactly("-U[2, 1, w]", "+U[2, 0, w]");
            assertThat(b.currentRows()).containsExactly("[1, 17, z]", "[2, 0, w]");
        }
    }

    @Test
    void firstRowEmitsOnlyKeysSeenTheFirstTime() throws Exception {
        try (LookupBucket b = bucket(MergeEngine.FIRST_ROW, Map.of())) {
            b.write(change(INSERT, 1, 10L, "x"));
            assertThat(b.commit()).containsExactly("+I[1, 10, x]");
            b.write(change(INSERT, 1, 11L, "later"), change(DELETE, 1, 10L, "x"));
            b.write(change(INSERT, 2, 20L, "y"));
            assertThat(b.commit()).containsExactly("+I[2, 20, y]");
        }
    }

    @Test
    void oldRowsComeFromTheFilesOfAnEarlierWriter() throws Exception {
        List<DataFile> published;
        try (LookupBucket first = bucket(MergeEngine.DEDUPLICATE, Map.of())) {
            first.write(change(INSERT, 1, 10L, "x"), change(INSERT, 2, 20L, "y"));
            first.commit();
            first.write(change(INSERT, 3, 30L, "z"));
            first.commit();
            published = first.files();
        }
        for (long memory : new long[] {AMPLE, 1024}) {
            try (LookupBucket b = bucket(MergeEngine.DEDUPLICATE, Map.of(), memory, published)) {
                b.write(change(UPDATE_AFTER, 3, 31L, "z"), change(DELETE, 1, 0L, "?"));
                assertThat(b.commit())
                        .as("with %d bytes of lookup memory", memory)
                        .containsExactly("-D[1, 10, x]", "-U[3, 30, z]", "+U[3, 31, z]");
            }
        }
    }

    @Test
    void aWriterAwaitingItsRestoreLooksUpWhatItFlushedOnceItKnowsTheFiles() throws Exception {
        List<DataFile> published;
        try (LookupBucket first = bucket(MergeEngine.DEDUPLICATE, Map.of())) {
            first.write(change(INSERT, 1, 10L, "x"), change(INSERT, 2, 20L, "y"));
            first.commit();
            published = first.files();
        }
        try (LookupBucket b = restoring(published)) {
            BucketTreeWriter writer = b.writer();
            writer.awaitRestore();
            b.write(change(UPDATE_AFTER, 1, 11L, "x"), change(INSERT, 3, 30L, "z"));
            writer.flush(); // pending: the writer does not know key 1's row yet
            b.write(change(UPDATE_AFTER, 1, 12L, "x"), change(DELETE, 2, 0L, "?"));
            writer.restore(published);
            assertThat(b.commit())
                    .as("the flush before the restore, then the one at the commit")
                    .containsExactly(
                            "-U[1, 10, x]",
                            "+U[1, 11, x]",
                            "+I[3, 30, z]",
                            "-U[1, 11, x]",
                            "+U[1, 12, x]",
                            "-D[2, 20, y]");
        }
        try (LookupBucket b = restoring(published)) {
            BucketTreeWriter writer = b.writer();
            writer.awaitRestore();
            b.write(change(UPDATE_AFTER, 2, 21L, "y"));
            writer.lookUpAgainst(published);
            assertThat(b.commit())
                    .as("at the end of the input, against the files given")
                    .containsExactly("-U[2, 20, y]", "+U[2, 21, y]");
            assertThat(b.files()).as("which the tree does not take in").hasSize(1);
        }
    }

    @Test
    void aFlushWhoseIndexOutgrowsTheMemoryMidwayLooksTheRestUpInTheFiles() throws Exception {
        // One page of the index and its slots, not two pages: the second commit's inserts outgrow
        // it after about a thousand keys, in the middle of the flush; the keys after that are
        // looked up in the first commit's files.
        long memory = RowPages.PAGE_BYTES + (64 << 10);
        String text = "b".repeat(20);
        try (LookupBucket b = bucket(MergeEngine.DEDUPLICATE, Map.of(), memory, List.of())) {
            for (int k = 0; k < 4000; k += 2) {
                b.write(change(INSERT, k, 1L, text));
            }
            assertThat(b.commit()).hasSize(2000);
            assertThat(b.memory().used()).as("the first commit's keys fit").isPositive();

            List<String> expected = new ArrayList<>();
            for (int k = 0; k < 6000; k++) {
                b.write(change(UPDATE_AFTER, k, 2L, text));
                if (k % 2 == 0 && k < 4000) {
                    expected.add("-U[" + k + ", 1, " + text + "]");
                    expected.add("+U[" + k + ", 2, " + text + "]");
                } else {
                    expected.add("+I[" + k + ", 2, " + text + "]");
                }
            }
            assertThat(b.commit()).containsExactlyElementsOf(expected);
            assertThat(b.memory().used()).as("the index was dropped").isZero();
        }
    }
}
