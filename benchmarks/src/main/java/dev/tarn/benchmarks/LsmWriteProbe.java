package dev.tarn.benchmarks;

import dev.tarn.format.Table;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.write.TableWrite;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.types.logical.RowType;

/**
 * The LSM writer of a primary-key table on its own, through the format's write seam: the
 * benchmark's upserts into 4 buckets with the default 256 MB write buffer and a commit every 2
 * seconds' worth of input. Prints the write amplification (bytes written by flushes and compactions
 * per byte flushed) and the peak live heap (after full collections). Usage: {@code LsmWriteProbe
 * rows keys warehouse-uri}; run in its own JVM.
 */
public final class LsmWriteProbe {

    /** Marks the lines of the result, amid whatever else the JVM prints. */
    static final String PREFIX = "result: ";

    /** Rows between commits: 2 s of input at 400,000 rows/s. */
    private static final long ROWS_PER_CHECKPOINT = 800_000;

    private static final String BATCH = "batch";

    public static void main(String[] args) throws Exception {
        long rows = Long.parseLong(args[0]);
        boolean batch = args.length > 3 && args[3].equals(BATCH);
        long rowsPerCommit = batch ? Long.MAX_VALUE : ROWS_PER_CHECKPOINT;
        long keys = Long.parseLong(args[1]);
        RowType type =
                (RowType)
                        DataTypes.ROW(
                                        DataTypes.FIELD("id", DataTypes.BIGINT().notNull()),
                                        DataTypes.FIELD("k", DataTypes.INT()),
                                        DataTypes.FIELD("s1", DataTypes.STRING()),
                                        DataTypes.FIELD("s2", DataTypes.STRING()),
                                        DataTypes.FIELD("price", DataTypes.DOUBLE()),
                                        DataTypes.FIELD("qty", DataTypes.INT()),
                                        DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3)),
                                        DataTypes.FIELD("flag", DataTypes.BOOLEAN()))
                                .getLogicalType();
        Table table =
                Table.create(
                        FileIO.flinkFileSystems(),
                        new Path(args[2]),
                        "bench.probe",
                        TableSchema.create(
                                type, List.of(), List.of("id"), Map.of("bucket", "4"), null));
        BenchGenFactory.Rows generator = new BenchGenFactory.Rows(rows, keys);
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        System.gc();
        long baseline = memory.getHeapMemoryUsage().getUsed();
        long peakLive = 0;
        long sampleEvery = Math.max(1, rows / 20);
        long commits = 0;
        TableWrite.WrittenBytes written;
        try (TableWrite write = table.newWrite()) {
            for (long i = 0; i < rows; i++) {
                write.write(generator.row(i));
                if (i % rowsPerCommit == rowsPerCommit - 1) {
                    table.newCommit("probe")
                            .commit(CommitRequest.of(++commits, write.prepareCommit(false)));
                }
                if (i % sampleEvery == sampleEvery - 1) {
                    // Live heap: what a full collection cannot free, i.e. what the writer holds.
                    System.gc();
                    peakLive = Math.max(peakLive, memory.getHeapMemoryUsage().getUsed());
                }
            }
            table.newCommit("probe").commit(CommitRequest.of(++commits, write.prepareCommit(true)));
            written = write.writtenBytes();
        }
        String mode =
                batch
                        ? "one commit at the end, as a batch insert"
                        : String.format(
                                "a commit every %,d rows, as at 2 s checkpoints",
                                ROWS_PER_CHECKPOINT);
        System.out.printf(
                "%s%s: write amplification: flushed %,d bytes, compacted %,d bytes: %.2f bytes"
                        + " written per byte flushed.%n",
                PREFIX,
                mode,
                written.flushed(),
                written.compacted(),
                (written.flushed() + written.compacted()) / (double) written.flushed());
        System.out.printf(
                "%s%s: peak live heap of the writer with a 256 MB write buffer (after full"
                        + " collections, %d samples, -Xmx1g): %,d MB over the %,d MB before"
                        + " writing.%n",
                PREFIX, mode, rows / sampleEvery, (peakLive - baseline) >> 20, baseline >> 20);
    }

    private LsmWriteProbe() {}
}
