package dev.tarn.format.lsm.tree;

import static dev.tarn.format.lsm.TestRows.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.io.FileIO;
import dev.tarn.format.lsm.KeyValueSchema;
import dev.tarn.format.lsm.compaction.UniversalCompaction;
import dev.tarn.format.lsm.merge.MergeFunctions;
import dev.tarn.format.lsm.run.BucketTreeReader;
import dev.tarn.format.lsm.run.KeyValueFileWriter;
import dev.tarn.format.lsm.sort.SortBuffer;
import dev.tarn.format.parquet.ParquetDataReader;
import dev.tarn.format.parquet.ParquetDataWriter;
import dev.tarn.format.schema.MergeEngine;
import dev.tarn.format.schema.TableConfig;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One bucket's writer: writing waits for compaction only past the stop trigger. */
class BucketTreeWriterTest {

    private static final RowType TABLE =
            RowType.of(
                    new LogicalType[] {new IntType(false), new BigIntType(), new VarCharType(20)},
                    new String[] {"k", "a", "b"});

    @TempDir java.nio.file.Path dir;

    @Test
    void flushesStallAtTheStopTriggerWhileACompactionRuns() throws Exception {
        KeyValueSchema schema = new KeyValueSchema(TABLE, new int[] {0});
        ExecutorService compactions = Executors.newSingleThreadExecutor();
        CountDownLatch slow = new CountDownLatch(1);
        // Holds the compaction thread, so compactions queue behind it while flushes go on.
        compactions.submit(() -> slow.await(200, TimeUnit.MILLISECONDS));
        int stopTrigger = 4;
        BucketTreeWriter.Setup setup =
                new BucketTreeWriter.Setup(
                        schema,
                        () ->
                                MergeFunctions.create(
                                        MergeEngine.DEDUPLICATE, TABLE, new int[] {0}, Map.of()),
                        new UniversalCompaction(200, 1, 2, 5),
                        compactions,
                        stopTrigger,
                        0,
                        ChangelogSetup.NONE,
                        null);
        Path bucket = new Path(dir.toUri());
        FileIO io = FileIO.flinkFileSystems();
        KeyValueFileWriter.Target target =
                new KeyValueFileWriter.Target(
                        io,
                        bucket,
                        schema,
                        ParquetDataWriter.Options.defaults(),
                        TableConfig.FileCompression.ZSTD,
                        1 << 20,
                        0);
        BucketTreeReader.ColumnOpener opener =
                (file, readType) ->
                        ParquetDataReader.open(
                                io,
                                new Path(bucket, file.fileName()),
                                file.fileSize(),
                                schema.fileType(),
                                readType,
                                null);
        int maxRuns = 0;
        try (BucketTreeWriter writer =
                new BucketTreeWriter(
                        setup,
                        target,
                        opener,
                        new Levels(schema, 5, List.of()),
                        SortBuffer.inMemory(schema.keys(), 4096),
                        1,
                        null)) {
            for (int i = 0; i < 3_000; i++) {
                writer.write(row(i % 500, (long) i, "v" + i));
                maxRuns = Math.max(maxRuns, writer.runs().size());
            }
            writer.compactFully();
            assertThat(writer.runs()).hasSize(1);
            assertThat(writer.bytesCompacted()).isPositive();
        } finally {
            slow.countDown();
            compactions.shutdownNow();
        }
        assertThat(maxRuns)
                .as("runs never pile up past the stop trigger while compaction lags")
                .isBetween(2, stopTrigger);
    }
}
