package dev.tarn.format.lookup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.TestTables;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.schema.TableSchema;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Gets by the whole key of an unpartitioned primary-key table, the join a dimension table serves
 * most: their answers against a plain map through loads and refreshes (keys in the hash-indexed
 * base, in the small run aside, removed), and what one get costs in allocated bytes.
 */
class TableLookupGetTest {

    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {new BigIntType(false), VarCharType.STRING_TYPE},
                    new String[] {"id", "name"});

    /** Keys of the table: several thousand per bucket, so each base run gets its hash index. */
    private static final int KEYS = 12_000;

    @TempDir java.nio.file.Path dir;

    private Table create() {
        return Table.create(
                FileIO.flinkFileSystems(),
                new Path(dir.resolve("t").toUri()),
                "db.t",
                TableSchema.create(TYPE, List.of(), List.of("id"), Map.of("bucket", "4"), null));
    }

    private TableLookup open(Table table) throws IOException {
        TableLookup lookup =
                table.newLookup(
                        new LookupSpec(
                                List.of("id"), new int[] {1, 0}, null, 0, 1, dir.resolve("l")));
        lookup.open();
        return lookup;
    }

    private static GenericRowData row(RowKind kind, long id, String name) {
        GenericRowData row = GenericRowData.of(id, StringData.fromString(name));
        row.setRowKind(kind);
        return row;
    }

    @Test
    void getsByTheWholeKeyFollowLoadsAndRefreshes() throws IOException {
        Table table = create();
        Map<Long, String> model = new HashMap<>();
        List<RowData> first = new ArrayList<>();
        for (long id = 0; id < KEYS; id++) {
            first.add(row(RowKind.INSERT, id, "a" + id));
            model.put(id, "a" + id);
        }
        TestTables.append(table, 1, first);
        try (TableLookup lookup = open(table)) {
            check(lookup, model);
            // New keys (to the run aside), updates and deletes of loaded keys (base entries).
            Random random = new Random(7);
            for (int c = 0; c < 3; c++) {
                List<RowData> changes = new ArrayList<>();
                for (int i = 0; i < 400; i++) {
                    long id = random.nextInt(KEYS + 2_000);
                    if (random.nextInt(4) == 0) {
                        changes.add(row(RowKind.DELETE, id, ""));
                        model.remove(id);
                    } else {
                        changes.add(row(RowKind.INSERT, id, "c" + c + "-" + id));
                        model.put(id, "c" + c + "-" + id);
                    }
                }
                TestTables.append(table, c + 2, changes);
                lookup.refresh();
                check(lookup, model);
            }
        }
    }

    private static void check(TableLookup lookup, Map<Long, String> model) throws IOException {
        for (long id = -5; id < KEYS + 2_100; id++) {
            List<RowData> got = lookup.get(GenericRowData.of(id));
            String expected = model.get(id);
            if (expected == null) {
                assertThat(got).as("rows of absent key %d", id).isEmpty();
            } else {
                assertThat(got).as("rows of key %d", id).hasSize(1);
                assertThat(got.get(0).getString(0).toString())
                        .as("name of %d", id)
                        .isEqualTo(expected);
                assertThat(got.get(0).getLong(1)).isEqualTo(id);
            }
        }
    }

    /**
     * A get by the whole key allocates its answer (the list and the row's copy) and little else: no
     * probe row of the stored type with boxed fields, no encoding of it, no callback and list of
     * its own. Measured over many gets of loaded keys, after a warm-up.
     */
    @Test
    void aGetByTheWholeKeyAllocatesLittleMoreThanItsAnswer() throws IOException {
        Table table = create();
        List<RowData> rows = new ArrayList<>();
        for (long id = 0; id < KEYS; id++) {
            rows.add(row(RowKind.INSERT, id, "name-" + id));
        }
        TestTables.append(table, 1, rows);
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        try (TableLookup lookup = open(table)) {
            GenericRowData[] keys = new GenericRowData[KEYS];
            for (int i = 0; i < KEYS; i++) {
                keys[i] = GenericRowData.of((long) i);
            }
            long found = 0;
            for (int round = 0; round < 20; round++) {
                for (GenericRowData key : keys) {
                    found += lookup.get(key).size();
                }
            }
            long before = threads.getThreadAllocatedBytes(thread);
            for (int round = 0; round < 5; round++) {
                for (GenericRowData key : keys) {
                    found += lookup.get(key).size();
                }
            }
            double perGet =
                    (double) (threads.getThreadAllocatedBytes(thread) - before) / (5 * KEYS);
            assertThat(found).isEqualTo(25L * KEYS);
            // The copy of a row of 2 fields (row, segment, bytes: about 130 bytes), the list, the
            // key's view and two scratch rows: about 250 bytes.
            assertThat(perGet).as("bytes allocated per get").isLessThan(300);
        }
    }
}
