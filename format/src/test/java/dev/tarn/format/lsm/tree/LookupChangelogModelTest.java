package dev.tarn.format.lsm.tree;

import static dev.tarn.format.lsm.tree.LookupBucket.change;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.ChangelogChecks;
import dev.tarn.format.lsm.lookup.LookupMemory;
import dev.tarn.format.manifest.FileContent;
import dev.tarn.format.schema.MergeEngine;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Random changes over many commits, with several flushes a commit and compactions in between: the
 * lookup changelog, applied to an empty map, equals the bucket's merged rows after every commit,
 * and every {@code -U} and {@code -D} carries exactly the row the map holds for its key. For each
 * merge engine, with an index that fits, one that is evicted by another bucket's, and none (the
 * rows read from the files at each flush).
 */
class LookupChangelogModelTest {

    private static final long AMPLE = 67108864;

    /** Room for one index of a few keys (a page and the smallest table), not two. */
    private static final long ONE_INDEX = 400000;

    @TempDir java.nio.file.Path dir;
    private final ExecutorService compactions = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        compactions.shutdownNow();
    }

    @ParameterizedTest(name = "{0}, {1} bytes of lookup memory, before-images {2}")
    @CsvSource({
        "deduplicate, 67108864, true",
        "deduplicate, 400000, true",
        "deduplicate, 1000, true",
        "deduplicate, 67108864, false",
        "deduplicate, 400000, false",
        "deduplicate, 1000, false",
        "aggregation, 67108864, false",
        "aggregation, 400000, false",
        "aggregation, 1000, false",
        "partial-update, 67108864, false",
        "partial-update, 1000, false",
        "first-row, 67108864, false",
        "first-row, 1000, false"
    })
    void theChangelogAppliedToAMapIsTheBucket(String engineName, long memory, boolean images)
            throws Exception {
        MergeEngine engine = MergeEngine.fromOption("t", engineName);
        Map<String, String> options =
                engine == MergeEngine.AGGREGATION
                        ? Map.of("fields.a.aggregate-function", "sum")
                        : Map.of();
        ChangelogSetup shared = ChangelogSetup.lookup(memory, images);
        Random random = new Random(42 + memory + engine.ordinal());
        try (LookupBucket b = bucket("b1", engine, options, shared);
                LookupBucket other = bucket("b2", engine, options, shared)) {
            Map<Integer, String> view = new TreeMap<>();
            Map<Integer, String> otherView = new TreeMap<>();
            for (int commit = 0; commit < 25; commit++) {
                writeRandom(b, engine, random, 120);
                apply(b.commit(), view, commit);
                assertThat(b.lastChangelog())
                        .as("commit %d: before-image files alone, or none", commit)
                        .allMatch(f -> (f.content() == FileContent.BEFORE_IMAGES) == images);
                assertThat(new ArrayList<>(view.values()))
                        .as("commit %d: the changelog applied to a map", commit)
                        .isEqualTo(b.currentRows());
                // Another bucket's index competes for the memory.
                writeRandom(other, engine, random, 40);
                apply(other.commit(), otherView, commit);
                assertThat(new ArrayList<>(otherView.values())).isEqualTo(other.currentRows());
            }
            LookupMemory lookupMemory = shared.lookupMemory();
            assertThat(lookupMemory.used()).isLessThanOrEqualTo(lookupMemory.limit());
            if (memory == AMPLE) {
                assertThat(lookupMemory.used()).as("both indexes kept").isPositive();
                assertThat(lookupMemory.evictions()).isZero();
            } else if (memory == ONE_INDEX) {
                assertThat(lookupMemory.evictions()).as("each evicts the other").isPositive();
            } else {
                assertThat(lookupMemory.used()).as("no index fits: rows read from files").isZero();
            }
        }
    }

    private LookupBucket bucket(
            String name, MergeEngine engine, Map<String, String> options, ChangelogSetup shared)
            throws Exception {
        java.nio.file.Path bucketDir = java.nio.file.Files.createDirectories(dir.resolve(name));
        // A 4 KB buffer flushes every few dozen changes: several level-0 runs a commit.
        return new LookupBucket(
                bucketDir, engine, options, shared, 4096, compactions, List.of(), 1);
    }

    private static void writeRandom(LookupBucket b, MergeEngine engine, Random random, int n)
            throws Exception {
        for (int i = 0; i < n; i++) {
            int key = random.nextInt(60);
            long a = random.nextInt(1000);
            String text = "v" + random.nextInt(1000) + "-".repeat(random.nextInt(12));
            int dice = random.nextInt(10);
            if (engine == MergeEngine.PARTIAL_UPDATE) {
                // No retractions; fields are filled in one by one.
                b.write(change(RowKind.INSERT, key, dice < 5 ? a : null, dice >= 3 ? text : null));
            } else if (dice < 2) {
                b.write(change(RowKind.DELETE, key, a, text));
            } else if (dice < 3 && engine == MergeEngine.AGGREGATION) {
                b.write(change(RowKind.UPDATE_BEFORE, key, a, text));
            } else {
                b.write(change(dice < 6 ? RowKind.INSERT : RowKind.UPDATE_AFTER, key, a, text));
            }
        }
    }

    private static void apply(List<String> changelog, Map<Integer, String> view, int commit) {
        ChangelogChecks.apply(
                changelog,
                view,
                row -> Integer.parseInt(row.substring(1, row.indexOf(','))),
                "commit " + commit);
    }
}
