package dev.tarn.format.lookup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.Table;
import dev.tarn.format.TestTables;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.schema.TableSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@link TableLookup} of a table several times larger than {@code lookup.cache-max-memory-size}:
 * its rows spill to local files and every get still equals the batch join, before and after a
 * refresh that updates and deletes spilled rows; a disk budget too small fails naming its option.
 */
class TableLookupSpillTest {

    /** {@code (id BIGINT NOT NULL, grp INT NOT NULL, payload STRING)}, key (grp, id). */
    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {
                        new BigIntType(false), new IntType(false), VarCharType.STRING_TYPE
                    },
                    new String[] {"id", "grp", "payload"});

    /** About 8 MB of rows: four times the memory budget below. */
    private static final int ROWS = 60_000;

    @TempDir java.nio.file.Path dir;

    private Table create(String name, Map<String, String> options) {
        return Table.create(
                FileIO.flinkFileSystems(),
                new Path(dir.resolve(name).toUri()),
                "db." + name,
                TableSchema.create(TYPE, List.of(), List.of("grp", "id"), options, null));
    }

    private static GenericRowData row(RowKind kind, long id, String payload) {
        GenericRowData row =
                GenericRowData.of(
                        id,
                        (int) (id % 50),
                        payload == null ? null : StringData.fromString(payload));
        row.setRowKind(kind);
        return row;
    }

    private static String payload(long id, int version) {
        return "v" + version + "-" + id + "-" + "x".repeat(100);
    }

    private static void writeAll(Table table) {
        List<RowData> rows = new ArrayList<>();
        for (long id = 0; id < ROWS; id++) {
            rows.add(row(RowKind.INSERT, id, payload(id, 1)));
        }
        TestTables.append(table, 1, rows);
    }

    private static List<GenericRowData> keys(boolean prefix) {
        List<GenericRowData> keys = new ArrayList<>();
        if (prefix) {
            for (int grp = 0; grp < 52; grp++) {
                keys.add(GenericRowData.of(grp));
            }
        } else {
            for (long id = 0; id < ROWS + 100; id += 97) {
                keys.add(GenericRowData.of((int) (id % 50), id));
            }
        }
        return keys;
    }

    private static void checkAgainstBatch(
            Table table, TableLookup lookup, LookupSpec spec, List<GenericRowData> keys) {
        Map<String, List<String>> expected =
                LookupChecks.expected(table, LookupChecks.batchRows(table), spec, r -> true, keys);
        assertThat(LookupChecks.hits(expected)).as("keys with rows").isPositive();
        assertThat(LookupChecks.describe(LookupChecks.actual(table, lookup, spec, keys)))
                .isEqualTo(LookupChecks.describe(expected));
    }

    private static long runFiles(java.nio.file.Path local) throws IOException {
        if (!Files.exists(local)) {
            return 0;
        }
        try (Stream<java.nio.file.Path> files = Files.list(local)) {
            return files.count();
        }
    }

    @Test
    void aTableLargerThanTheMemoryBudgetSpillsAndJoinsAsTheBatchJoin() throws IOException {
        Table table = create("large", Map.of("bucket", "4", "lookup.cache-max-memory-size", "2mb"));
        writeAll(table);
        java.nio.file.Path local = dir.resolve("local");
        for (boolean prefix : new boolean[] {false, true}) {
            List<String> join = prefix ? List.of("grp") : List.of("grp", "id");
            LookupSpec spec = new LookupSpec(join, new int[] {0, 2}, null, 0, 1, local);
            try (TableLookup lookup = table.newLookup(spec)) {
                lookup.open();
                assertThat(lookup.diskBytes()).as("bytes spilled").isPositive();
                assertThat(runFiles(local)).as("run files").isPositive();
                assertThat(lookup.memoryBytes()).isLessThanOrEqualTo(2L << 20);
                checkAgainstBatch(table, lookup, spec, keys(prefix));

                List<RowData> changes = new ArrayList<>();
                for (long id = 0; id < ROWS; id += 3) {
                    changes.add(
                            id % 2 == 0
                                    ? row(RowKind.DELETE, id, null)
                                    : row(RowKind.INSERT, id, payload(id, 2)));
                }
                TestTables.append(table, prefix ? 3 : 2, changes);
                assertThat(lookup.refresh())
                        .isEqualTo(table.metadata().latestSnapshotId().getAsLong());
                checkAgainstBatch(table, lookup, spec, keys(prefix));
            }
            assertThat(runFiles(local)).as("run files left after close").isZero();
        }
    }

    @Test
    void aDiskBudgetTooSmallFailsNamingTheOption() {
        Table table =
                create(
                        "small",
                        Map.of(
                                "bucket", "2",
                                "lookup.cache-max-memory-size", "1mb",
                                "lookup.cache-max-disk-size", "64kb"));
        writeAll(table);
        LookupSpec spec =
                new LookupSpec(
                        List.of("grp", "id"), new int[] {0, 2}, null, 0, 1, dir.resolve("l"));
        try (TableLookup lookup = table.newLookup(spec)) {
            assertThatThrownBy(lookup::open)
                    .hasMessageContaining("beyond lookup.cache-max-disk-size = 65536 bytes")
                    .hasMessageContaining("raise lookup.cache-max-disk-size");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
