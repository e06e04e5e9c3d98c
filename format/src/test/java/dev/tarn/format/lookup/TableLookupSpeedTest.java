package dev.tarn.format.lookup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.TestTables;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.write.TableWrite;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How fast a get by key is, printed, not asserted (the machine is shared): 1,000,000 keys in 4
 * buckets, every key looked up once in random order after a warm-up pass.
 */
class TableLookupSpeedTest {

    private static final int KEYS = 1_000_000;

    @TempDir java.nio.file.Path dir;

    @Test
    void printsNanosecondsPerGet() throws IOException {
        Table table =
                Table.create(
                        FileIO.flinkFileSystems(),
                        new Path(dir.resolve("speed").toUri()),
                        "db.speed",
                        TableSchema.create(
                                RowType.of(
                                        new LogicalType[] {
                                            new BigIntType(false), VarCharType.STRING_TYPE
                                        },
                                        new String[] {"id", "v"}),
                                List.of(),
                                List.of("id"),
                                Map.of("bucket", "4"),
                                null));
        try (TableWrite write = table.newWrite()) {
            for (long id = 0; id < KEYS; id++) {
                write.write(GenericRowData.of(id, StringData.fromString("name-" + id)));
            }
            TestTables.commit(
                    table,
                    "user",
                    dev.tarn.format.commit.CommitRequest.of(1, write.prepareCommit()));
        }
        LookupSpec spec = new LookupSpec(List.of("id"), new int[] {0, 1}, null, 0, 1, dir);
        try (TableLookup lookup = table.newLookup(spec)) {
            long openStart = System.nanoTime();
            lookup.open();
            long openNanos = System.nanoTime() - openStart;
            long[] order = new long[KEYS];
            java.util.Random random = new java.util.Random(1);
            for (int i = 0; i < KEYS; i++) {
                order[i] = random.nextInt(KEYS);
            }
            long found = 0;
            for (int pass = 0; pass < 2; pass++) {
                long start = System.nanoTime();
                for (long id : order) {
                    found += lookup.get(GenericRowData.of(id)).size();
                }
                long nanos = System.nanoTime() - start;
                System.out.printf(
                        "TableLookup %s: open %d ms, %d gets, %.0f ns per get, %d MB held%n",
                        pass == 0 ? "warm-up" : "measured",
                        openNanos / 1_000_000,
                        KEYS,
                        (double) nanos / KEYS,
                        lookup.memoryBytes() >> 20);
            }
            assertThat(found).isEqualTo(2L * KEYS);
        }
    }
}
