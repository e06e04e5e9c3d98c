package dev.tarn.benchmarks;

import dev.tarn.format.Table;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.TableRead;
import dev.tarn.format.row.BinaryRowBatch;
import dev.tarn.format.schema.SchemaChange;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.write.TableWrite;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * {@code --probe schema-scan}: {@link SchemaScanBenchmark}'s two scans on one thread, without
 * Flink, through the read seam as the source's fetcher reads (each decoded batch transferred to
 * binary rows column by column where the reader can). One table holds a third of the rows under
 * each of three schema versions (before a column was added, before one was renamed, before one was
 * widened) and is read through a fourth; the other holds the same rows under one schema. Runs
 * alternate between the two; prints medians of thread CPU time and their ratio.
 */
final class SchemaScanProbe {

    /** The benchmark's 8 columns, as written by {@link BenchGenFactory}. */
    static final RowType TYPE =
            (RowType)
                    DataTypes.ROW(
                                    DataTypes.FIELD("id", DataTypes.BIGINT()),
                                    DataTypes.FIELD("k", DataTypes.INT()),
                                    DataTypes.FIELD("s1", DataTypes.STRING()),
                                    DataTypes.FIELD("s2", DataTypes.STRING()),
                                    DataTypes.FIELD("price", DataTypes.DOUBLE()),
                                    DataTypes.FIELD("qty", DataTypes.INT()),
                                    DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3)),
                                    DataTypes.FIELD("flag", DataTypes.BOOLEAN()))
                            .getLogicalType();

    private SchemaScanProbe() {}

    static void run(int rows, int runs, PrintStream out) throws Exception {
        java.nio.file.Path dir = Files.createTempDirectory("tarn-schema-scan");
        BenchGenFactory.Rows gen = new BenchGenFactory.Rows(rows, 0);
        Table evolved = create(dir.resolve("evolved"), TYPE);
        int third = rows / 3;
        write(evolved, gen, 0, third, false);
        evolved =
                evolve(
                        evolved,
                        new SchemaChange.AddColumn("note", VarCharType.STRING_TYPE, null, null));
        write(evolved, gen, third, 2 * third, true);
        evolved = evolve(evolved, new SchemaChange.RenameColumn("s1", "name"));
        write(evolved, gen, 2 * third, rows, true);
        evolved = evolve(evolved, new SchemaChange.UpdateColumnType("k", new BigIntType()));
        Table single = create(dir.resolve("single"), evolved.schema().rowType());
        try (TableWrite write = single.newWrite()) {
            for (int i = 0; i < rows; i++) {
                GenericRowData r = (GenericRowData) gen.row(i);
                r.setField(1, (long) (Integer) r.getField(1));
                write.write(withNote(r, i >= third));
            }
            single.newCommit("probe").commit(CommitRequest.of(1, write.prepareCommit()));
        }
        out.printf(
                "Schema-scan probe: %,d rows; evolved: %d files, single: %d files%n",
                rows, files(evolved), files(single));
        for (int w = 0; w < 3; w++) {
            scan(evolved, rows);
            scan(single, rows);
        }
        double[] e = new double[runs];
        double[] s = new double[runs];
        for (int r = 0; r < runs; r++) {
            e[r] = scan(evolved, rows);
            s[r] = scan(single, rows);
        }
        out.printf(
                "result: files of three schema versions: median %.3f s CPU (runs %s)%n",
                median(e), Arrays.toString(e));
        out.printf(
                "result: files of one schema version:    median %.3f s CPU (runs %s)%n",
                median(s), Arrays.toString(s));
        out.printf("result: ratio %.3f%n", median(e) / median(s));
    }

    private static Table create(java.nio.file.Path location, RowType type) {
        return Table.create(
                FileIO.flinkFileSystems(),
                new Path(location.toUri()),
                "bench.t",
                TableSchema.create(
                        type,
                        List.of(),
                        List.of(),
                        Map.of("target-file-size", "256mb", "parquet.block.size", "134217728"),
                        null));
    }

    private static Table evolve(Table table, SchemaChange change) {
        table.alter(List.of(change));
        return Table.load(FileIO.flinkFileSystems(), table.location(), table.name());
    }

    private static RowData withNote(GenericRowData r, boolean note) {
        GenericRowData out = new GenericRowData(9);
        for (int i = 0; i < 8; i++) {
            out.setField(i, r.getField(i));
        }
        out.setField(8, note ? r.getField(3) : null);
        return out;
    }

    private static void write(Table table, BenchGenFactory.Rows gen, int from, int to, boolean note)
            throws Exception {
        try (TableWrite write = table.newWrite()) {
            for (int i = from; i < to; i++) {
                GenericRowData r = (GenericRowData) gen.row(i);
                write.write(note ? withNote(r, true) : r);
            }
            table.newCommit("probe").commit(CommitRequest.of(from + 1, write.prepareCommit()));
        }
    }

    private static long files(Table table) {
        return table.newScan().plan().splits().stream().mapToLong(s -> s.files().size()).sum();
    }

    /** Thread CPU seconds of one full scan; fails unless it returns every row. */
    private static double scan(Table table, int rows) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpu0 = threads.getCurrentThreadCpuTime();
        long count = 0;
        BinaryRowBatch batch = new BinaryRowBatch(4096);
        TableRead read = table.newRead();
        for (Split split : table.newScan().plan().splits()) {
            try (TableRead.SplitReader reader = read.open(split)) {
                for (RowData r = reader.next(); r != null; r = reader.next()) {
                    count++;
                    batch.clear();
                    count += reader.transferBuffered(batch, 4096);
                }
            }
        }
        double seconds = (threads.getCurrentThreadCpuTime() - cpu0) / 1e9;
        if (count != rows) {
            throw new WrongResultException(
                    String.format(
                            "scan of %s returned %,d rows, expected %,d",
                            table.name(), count, rows));
        }
        return seconds;
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
