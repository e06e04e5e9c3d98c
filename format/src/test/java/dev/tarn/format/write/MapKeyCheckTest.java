package dev.tarn.format.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.parquet.CanonicalValues;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.TableRead;
import dev.tarn.format.schema.TableSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table write refuses a row with a NULL map key (or multiset element) at any depth, naming the
 * table, the column and where in it, before a writer takes the row; NULL values and NULL maps are
 * written; a table without map columns is not checked at all.
 */
class MapKeyCheckTest {

    /**
     * {@code (id, m MAP, a ARRAY<MAP>, r ROW<n, m MAP>, s MULTISET, mm MAP<STRING, MAP>)}, every
     * map of {@code STRING} to {@code BIGINT} but the innermost of {@code mm}.
     */
    private static final RowType NESTED =
            (RowType)
                    DataTypes.ROW(
                                    DataTypes.FIELD("id", DataTypes.BIGINT().notNull()),
                                    DataTypes.FIELD("m", map()),
                                    DataTypes.FIELD("a", DataTypes.ARRAY(map())),
                                    DataTypes.FIELD(
                                            "r",
                                            DataTypes.ROW(
                                                    DataTypes.FIELD("n", DataTypes.INT()),
                                                    DataTypes.FIELD("m", map()))),
                                    DataTypes.FIELD("s", DataTypes.MULTISET(DataTypes.STRING())),
                                    DataTypes.FIELD(
                                            "mm",
                                            DataTypes.MAP(
                                                    DataTypes.STRING(),
                                                    DataTypes.MAP(
                                                            DataTypes.INT(), DataTypes.INT()))))
                            .getLogicalType();

    private static final String TAIL =
            ", which Parquet data files cannot store (map keys are required); leave the entry out"
                    + " or give it a key";

    @TempDir java.nio.file.Path dir;

    private static org.apache.flink.table.types.DataType map() {
        return DataTypes.MAP(DataTypes.STRING(), DataTypes.BIGINT());
    }

    private Table table(List<String> primaryKeys) {
        return Table.create(
                FileIO.flinkFileSystems(),
                new Path(dir.toUri()),
                TestTables.NAME,
                TableSchema.create(NESTED, List.of(), primaryKeys, Map.of(), null));
    }

    /** A map of the given keys and values, {@code null} allowed for either. */
    private static GenericMapData entries(Object... keysAndValues) {
        Map<Object, Object> entries = new HashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            Object key = keysAndValues[i];
            entries.put(
                    key instanceof String s ? StringData.fromString(s) : key, keysAndValues[i + 1]);
        }
        return new GenericMapData(entries);
    }

    private static GenericRowData row(long id, Object m, Object a, Object r, Object s, Object mm) {
        return GenericRowData.of(id, m, a, r, s, mm);
    }

    @Test
    void aNullKeyAtAnyDepthIsRefusedNamingTableColumnAndPlace() throws IOException {
        GenericMapData nullKey = entries(null, 1L);
        Map<RowData, String> refused = new java.util.LinkedHashMap<>();
        refused.put(
                row(1, nullKey, null, null, null, null),
                "column m (MAP<STRING, BIGINT>) holds a NULL map key");
        refused.put(
                row(
                        2,
                        null,
                        new GenericArrayData(new Object[] {entries("k", 1L), nullKey}),
                        null,
                        null,
                        null),
                "column a (ARRAY<MAP<STRING, BIGINT>>) holds a NULL map key at a[]");
        refused.put(
                row(3, null, null, GenericRowData.of(7, nullKey), null, null),
                "column r (ROW<`n` INT, `m` MAP<STRING, BIGINT>>) holds a NULL map key at r.m");
        refused.put(
                row(4, null, null, null, null, entries("k", entries(null, 1))),
                "column mm (MAP<STRING, MAP<INT, INT>>) holds a NULL map key at mm[]");
        for (List<String> keys : List.of(List.<String>of(), List.of("id"))) {
            Table table = table(keys);
            try (TableWrite write = table.newWrite()) {
                for (Map.Entry<RowData, String> e : refused.entrySet()) {
                    assertThatThrownBy(() -> write.write(e.getKey()))
                            .as("primary key %s: %s", keys, e.getValue())
                            .isInstanceOf(IllegalArgumentException.class)
                            .hasMessage("Cannot write a row to table db.t: " + e.getValue() + TAIL);
                }
                assertThatThrownBy(
                                () -> write.write(row(5, null, null, null, entries(null, 2), null)))
                        .hasMessage(
                                "Cannot write a row to table db.t: column s (MULTISET<STRING>)"
                                        + " holds a NULL multiset element, which Parquet data"
                                        + " files cannot store (a multiset is stored as a map"
                                        + " from element to count, and map keys are required);"
                                        + " leave the element out");
            }
            deleteTable();
        }
    }

    @Test
    void nullValuesAndNullMapsAreWrittenAndReadBack() throws IOException {
        Table table = table(List.of());
        GenericRowData row =
                row(
                        1,
                        entries("k", null),
                        new GenericArrayData(new Object[] {null, entries("k", null)}),
                        GenericRowData.of(null, null),
                        entries("e", 1),
                        entries("k", null));
        TestTables.append(table, 1, List.of(row, row(2, null, null, null, null, null)));
        assertThat(readAll(table))
                .containsExactly(
                        "[1, {s:k=null}, [null, {s:k=null}], [null, null], {s:e=1}, {s:k=null}]",
                        "[2, null, null, null, null, null]");
    }

    /** Every row of the table, its values compared by content. */
    private static List<String> readAll(Table table) throws IOException {
        List<String> rows = new ArrayList<>();
        TableRead read = table.newRead();
        for (Split split : table.newScan().plan().splits()) {
            try (TableRead.SplitReader reader = read.open(split)) {
                for (RowData row = reader.next(); row != null; row = reader.next()) {
                    rows.add(CanonicalValues.row(row, NESTED).toString());
                }
            }
        }
        rows.sort(null);
        return rows;
    }

    @Test
    void aRefusedRowLeavesNoFileBehind() throws IOException {
        for (List<String> keys : List.of(List.<String>of(), List.of("id"))) {
            Table table = table(keys);
            TableWrite write = table.newWrite();
            write.write(row(1, entries("k", 1L), null, null, null, null));
            assertThatThrownBy(() -> write.write(row(2, entries(null, 1L), null, null, null, null)))
                    .isInstanceOf(IllegalArgumentException.class);
            write.close();
            try (Stream<java.nio.file.Path> files = Files.walk(dir)) {
                assertThat(files.map(p -> p.getFileName().toString()))
                        .as("primary key %s", keys)
                        .noneMatch(name -> name.endsWith(".parquet"));
            }
            assertThat(TableInternals.context(table).snapshotManager().latestId()).isEmpty();
            deleteTable();
        }
    }

    @Test
    void aTableWithoutMapsIsNotChecked() {
        assertThat(MapKeyCheck.of("db.t", TestTables.ID_V)).isNull();
        RowType arraysAndRows =
                (RowType)
                        DataTypes.ROW(
                                        DataTypes.FIELD("a", DataTypes.ARRAY(DataTypes.INT())),
                                        DataTypes.FIELD(
                                                "r",
                                                DataTypes.ROW(
                                                        DataTypes.FIELD(
                                                                "x",
                                                                DataTypes.ARRAY(
                                                                        DataTypes.STRING())))))
                                .getLogicalType();
        assertThat(MapKeyCheck.of("db.t", arraysAndRows)).isNull();
        assertThat(MapKeyCheck.of("db.t", NESTED)).isNotNull();
    }

    private void deleteTable() throws IOException {
        try (Stream<java.nio.file.Path> paths = Files.walk(dir)) {
            for (java.nio.file.Path p :
                    paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                if (!p.equals(dir)) {
                    Files.delete(p);
                }
            }
        }
    }
}
