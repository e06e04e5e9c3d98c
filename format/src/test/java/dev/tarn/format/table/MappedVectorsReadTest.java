package dev.tarn.format.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.read.Split;
import dev.tarn.format.read.TableRead;
import dev.tarn.format.row.BinaryRowBatch;
import dev.tarn.format.schema.SchemaChange;
import dev.tarn.format.schema.SchemaChange.AddColumn;
import dev.tarn.format.schema.SchemaChange.RenameColumn;
import dev.tarn.format.schema.SchemaChange.UpdateColumnType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A file of an older schema read through a newer one stays columnar: its batches are converted per
 * column and transferred to binary rows column by column, with the same values as a row-by-row
 * read, nulls included. A column whose default is not a vector constant (a STRING's) makes the file
 * go row by row, with the same values too.
 */
class MappedVectorsReadTest {

    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {
                        new BigIntType(false),
                        new TinyIntType(),
                        new SmallIntType(),
                        new IntType(),
                        new FloatType(),
                        new DecimalType(5, 2),
                        new DecimalType(12, 3),
                        new VarCharType(4)
                    },
                    new String[] {"k", "t", "s", "i", "f", "d5", "d12", "v"});

    @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir;

    @ParameterizedTest(name = "string default {0}")
    @ValueSource(booleans = {false, true})
    void widenedAndAddedColumnsTransferByVectorsAsRowsRead(boolean stringDefault) throws Exception {
        EvolvingTable t = new EvolvingTable(dir, TYPE, List.of());
        List<RowData> rows = new ArrayList<>();
        for (int r = 0; r < 5000; r++) {
            boolean nulls = r % 7 == 3;
            rows.add(
                    GenericRowData.of(
                            (long) r,
                            nulls ? null : (byte) (r % 100 - 50),
                            nulls ? null : (short) (r - 2500),
                            nulls ? null : r * 1000 - 7,
                            nulls ? null : r / 4f,
                            nulls ? null : decimal(BigDecimal.valueOf(r % 1000 - 500, 2), 5, 2),
                            nulls ? null : decimal(BigDecimal.valueOf(r * 37L, 3), 12, 3),
                            nulls ? null : StringData.fromString("v" + r % 100)));
        }
        t.write(rows);
        List<SchemaChange> changes =
                new ArrayList<>(
                        List.of(
                                new UpdateColumnType("t", new IntType()),
                                new UpdateColumnType("s", new BigIntType()),
                                new UpdateColumnType("i", new BigIntType()),
                                new UpdateColumnType("f", new DoubleType()),
                                new UpdateColumnType("d5", new DecimalType(9, 4)),
                                new UpdateColumnType("d12", new DecimalType(16, 5)),
                                new UpdateColumnType("v", VarCharType.STRING_TYPE),
                                new RenameColumn("v", "name"),
                                new AddColumn("none", new IntType(), null, null),
                                new AddColumn("tier", new IntType(false), null, null, "7"),
                                new AddColumn("big", new BigIntType(), null, null, "-3")));
        if (stringDefault) {
            changes.add(new AddColumn("note", VarCharType.STRING_TYPE, null, null, "n/a"));
        }
        t.evolve(changes);
        List<List<String>> byRows = t.read(null);
        List<List<String>> byVectors = new ArrayList<>();
        long transferred = 0;
        RowType type = t.schema().rowType();
        BinaryRowBatch batch = new BinaryRowBatch(10_000);
        BinaryRowData binary = new BinaryRowData(type.getFieldCount());
        for (Split split : t.table().newScan().plan().splits()) {
            try (TableRead.SplitReader reader = t.table().newRead().open(split)) {
                for (RowData r = reader.next(); r != null; r = reader.next()) {
                    byVectors.add(text(type, r));
                    batch.clear();
                    int moved = reader.transferBuffered(batch, 10_000);
                    transferred += moved;
                    for (int i = 0; i < moved; i++) {
                        batch.pointTo(binary, i);
                        byVectors.add(text(type, binary));
                    }
                }
            }
        }
        byVectors.sort(EvolvingTable::compare);
        assertThat(byVectors).isEqualTo(byRows);
        assertThat(byRows).hasSize(5000);
        List<List<String>> expected = new ArrayList<>();
        for (RowData r : rows) {
            List<String> row = new ArrayList<>();
            for (int i = 0; i < TYPE.getFieldCount(); i++) {
                row.add(
                        EvolvingTable.text(
                                RowData.createFieldGetter(TYPE.getTypeAt(i), i).getFieldOrNull(r)));
            }
            row.addAll(Arrays.asList(null, "7", "-3"));
            if (stringDefault) {
                row.add("n/a");
            }
            expected.add(row);
        }
        expected.sort(EvolvingTable::compare);
        assertThat(byRows).isEqualTo(expected);
        if (stringDefault) {
            assertThat(transferred).isZero();
        } else {
            assertThat(transferred).isGreaterThan(4000);
        }
    }

    private static DecimalData decimal(BigDecimal value, int precision, int scale) {
        return DecimalData.fromBigDecimal(value, precision, scale);
    }

    private static List<String> text(RowType type, RowData row) {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < type.getFieldCount(); i++) {
            values.add(
                    EvolvingTable.text(
                            RowData.createFieldGetter(type.getTypeAt(i), i).getFieldOrNull(row)));
        }
        return values;
    }
}
