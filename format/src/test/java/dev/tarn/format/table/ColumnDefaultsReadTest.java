package dev.tarn.format.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.schema.SchemaChange.AddColumn;
import dev.tarn.format.schema.SchemaChange.RenameColumn;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Columns added with a default read as it in the rows of files written before them (by vectors for
 * an INT, row by row for a STRING), while rows written with the column keep their values, nulls
 * included; statistics of old files count the column as all its default; a primary-key merge over
 * files of both schemas, and a compaction of them, keep the defaults.
 */
class ColumnDefaultsReadTest {

    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {new BigIntType(false), new IntType()},
                    new String[] {"k", "n"});

    @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir;

    private static List<String> row(String... values) {
        return Arrays.asList(values);
    }

    @ParameterizedTest(name = "primary key {0}")
    @ValueSource(booleans = {false, true})
    void addedColumnsReadAsTheirDefaultsInOldFiles(boolean primaryKey) throws Exception {
        EvolvingTable t = new EvolvingTable(dir, TYPE, primaryKey ? List.of("k") : List.of());
        t.write(List.of(GenericRowData.of(1L, 10), GenericRowData.of(2L, 20)));
        long oldFiles = plannedFiles(t, null);
        // A NOT NULL column: its default set first (as two ALTER TABLE statements do it).
        Map<String, String> options = new HashMap<>(t.schema().options());
        options.put("fields.tier.default-value", "7");
        t.setOptions(options);
        t.evolve(
                List.of(
                        new AddColumn("tier", new IntType(false), null, null),
                        new AddColumn("note", VarCharType.STRING_TYPE, null, null, "none"),
                        new AddColumn("plain", new IntType(), null, null)));
        RowData explicitNull = GenericRowData.of(3L, 30, 8, null, 1);
        List<RowData> rows =
                List.of(explicitNull, GenericRowData.of(4L, 40, 8, fromString("x"), 2));
        t.write(primaryKey ? List.of(explicitNull, GenericRowData.of(1L, 11, 9, null, 3)) : rows);
        List<List<String>> expected =
                primaryKey
                        ? List.of(
                                row("1", "11", "9", null, "3"),
                                row("2", "20", "7", "none", null),
                                row("3", "30", "8", null, "1"))
                        : List.of(
                                row("1", "10", "7", "none", null),
                                row("2", "20", "7", "none", null),
                                row("3", "30", "8", null, "1"),
                                row("4", "40", "8", "x", "2"));
        assertThat(t.read(null)).isEqualTo(expected);
        // The default follows a rename, and old files still read as it.
        t.evolve(List.of(new RenameColumn("tier", "level")));
        assertThat(t.read(null)).isEqualTo(expected);
        if (!primaryKey) {
            // Old files are all 7 in level (new ones all 8): a filter on 7 keeps just them, one
            // on 5 prunes every file.
            assertThat(plannedFiles(t, level(7))).isEqualTo(oldFiles);
            assertThat(plannedFiles(t, level(5))).isZero();
        }
        t.compact();
        assertThat(t.read(null)).isEqualTo(expected);
    }

    private static StringData fromString(String s) {
        return StringData.fromString(s);
    }

    private static Predicate level(int value) {
        return new Predicate.Leaf(Predicate.Op.EQ, 2, "level", new IntType(false), List.of(value));
    }

    private static long plannedFiles(EvolvingTable t, Predicate filter) {
        return t.table().newScan().withFilter(filter).plan().splits().stream()
                .mapToLong(s -> s.files().size())
                .sum();
    }
}
