package dev.tarn.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.io.FileIO;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The freshness figure of the deletion-vector issue: a batch read right after a streaming commit to
 * a Tarn table with deletion vectors sees the rows of that commit, and none it replaced, commit
 * after commit (the second replacing rows of the first, still in level 0). Small on purpose: the
 * table is loaded by one batch job at parallelism 1 (the benchmark's streaming load waits for its
 * checkpoints, and its correctness is the benchmark's own check), and two commits with a read after
 * each are the fewest that show a vector on a level-0 file of an earlier commit.
 */
class FreshCommitITCase {

    @TempDir static Path warehouse;

    @BeforeAll
    static void startCluster() throws Exception {
        SessionCluster.start(2);
    }

    @Test
    void aBatchReadRightAfterAStreamingCommitToAVectorTableSeesIt() throws Exception {
        PrimaryKeyBenchmark bench =
                new PrimaryKeyBenchmark(800, warehouse, new TableSizes(false), 2);
        DeletionVectorPipelines.Variant dv = new DeletionVectorPipelines.Variant("tarn", true);
        bench.write(dv.catalog(), dv.table(), dv.options(), false, 1);
        TarnSystem tarn = new TarnSystem("file://" + warehouse.resolve("tarn").toAbsolutePath());

        List<FreshCommit.Read> reads =
                FreshCommit.run(tarn, dv.table(), bench.lastWrites(50), bench.left(), 2);

        assertThat(reads).hasSize(2).allMatch(FreshCommit.Read::fresh, "fresh");
        FreshCommit.Read last = reads.get(1);
        assertThat(last.toString())
                .isEqualTo(
                        String.format(
                                "after commit 2, 50 of its 50 rewritten keys, 200 rows with"
                                        + " checksum %d (expected 200 rows with checksum %d)",
                                last.expected().checksum(), last.expected().checksum()));
        assertThat(last.expected().checksum()).isNotEqualTo(bench.left().checksum());
        FreshCommit.check("tarn", reads);
        // The commits kept deletion vectors: the latest snapshot names them.
        Table table =
                Table.load(
                        FileIO.flinkFileSystems(),
                        new org.apache.flink.core.fs.Path(
                                warehouse.resolve("tarn/bench.db/users_dv").toUri()),
                        "bench.users_dv");
        assertThat(table.metadata().latestSnapshot().orElseThrow().indexManifest()).isNotNull();
    }
}
