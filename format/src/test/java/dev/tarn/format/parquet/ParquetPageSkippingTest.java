package dev.tarn.format.parquet;

import static dev.tarn.format.parquet.ParquetTestFiles.IO;
import static dev.tarn.format.parquet.ParquetTestFiles.length;
import static dev.tarn.format.parquet.ParquetTestFiles.path;
import static dev.tarn.format.parquet.ParquetTestFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.deletion.DeletionVector;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.predicate.Predicate.Op;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inside one large row group, a selective filter reads only the pages whose rows may match
 * (Parquet's column indexes), and still returns every matching row, for flat and nested columns.
 */
class ParquetPageSkippingTest {

    @TempDir static java.nio.file.Path dir;

    private static final int ROWS = 300_000;

    private static final RowType TYPE =
            (RowType)
                    DataTypes.ROW(
                                    DataTypes.FIELD("id", DataTypes.BIGINT()),
                                    DataTypes.FIELD("name", DataTypes.STRING()),
                                    DataTypes.FIELD("tags", DataTypes.ARRAY(DataTypes.INT())))
                            .getLogicalType();

    private static Path file;

    @BeforeAll
    static void writeOneRowGroup() throws Exception {
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            rows.add(
                    GenericRowData.of(
                            (long) i,
                            StringData.fromString("name-" + (i * 7919L % 100_003)),
                            new org.apache.flink.table.data.GenericArrayData(new int[] {i, -i})));
        }
        file = path(dir, "one-group.parquet");
        write(file, TYPE, ParquetDataWriter.Options.defaults(), rows);
    }

    private static Predicate between(long lo, long hi) {
        return new Predicate.And(
                List.of(
                        new Predicate.Leaf(Op.GT_EQ, 0, "id", TYPE.getTypeAt(0), List.of(lo)),
                        new Predicate.Leaf(Op.LT_EQ, 0, "id", TYPE.getTypeAt(0), List.of(hi))));
    }

    private static List<Long> ids(RowType readType, Predicate filter, long[] bytes)
            throws Exception {
        List<Long> ids = new ArrayList<>();
        try (ParquetDataReader reader =
                ParquetDataReader.open(IO, file, length(file), TYPE, readType, filter)) {
            assertThat(reader.rowGroupsTotal()).isEqualTo(1);
            for (RowData row = reader.next(); row != null; row = reader.next()) {
                ids.add(row.getLong(0));
                if (readType.getFieldCount() == 3) {
                    assertThat(row.getArray(2).getInt(0)).isEqualTo((int) row.getLong(0));
                }
            }
            bytes[0] = reader.bytesRead();
        }
        return ids;
    }

    @Test
    void rangeFilterReadsFewPagesAndEveryMatch() throws Exception {
        long[] bytes = new long[1];
        List<Long> ids = ids(TYPE, between(100_000, 100_999), bytes);
        assertThat(ids).containsAll(range(100_000, 100_999));
        assertThat(ids.size()).isLessThan(ROWS / 10);
        // Footer and column indexes are a fixed cost; on this 2.5 MB file they are most of it.
        assertThat(bytes[0]).isLessThan(length(file) / 10);

        List<Long> all = ids(TYPE, null, bytes);
        assertThat(all).hasSize(ROWS);
        assertThat(bytes[0]).isGreaterThan(length(file) * 9 / 10);
    }

    @Test
    void filterOnAColumnThatIsNotReadSkipsNoMatchingRow() throws Exception {
        RowType onlyName = new RowType(List.of(TYPE.getFields().get(1)));
        long[] bytes = new long[1];
        try (ParquetDataReader reader =
                ParquetDataReader.open(
                        IO, file, length(file), TYPE, onlyName, between(5_000, 5_009))) {
            int count = 0;
            while (reader.next() != null) {
                count++;
            }
            assertThat(count)
                    .as("every row: pages are skipped by read columns only")
                    .isEqualTo(ROWS);
        }
    }

    @Test
    void positionsAreRowIndexesInFullAndPartialRowGroupsAndDeletedOnesAreSkipped()
            throws Exception {
        DeletionVector deleted = DeletionVector.of(0, 1, 100_500, 100_501, 299_999);
        for (Predicate filter : java.util.Arrays.asList(null, between(100_000, 100_999))) {
            try (ParquetDataReader reader =
                    ParquetDataReader.open(IO, file, length(file), TYPE, TYPE, filter)
                            .withDeletions(deleted)) {
                List<Long> ids = new ArrayList<>();
                for (RowData row = reader.next(); row != null; row = reader.next()) {
                    assertThat(reader.position())
                            .as("position of id %s", row.getLong(0))
                            .isEqualTo(row.getLong(0));
                    ids.add(row.getLong(0));
                }
                assertThat(ids).doesNotContain(0L, 1L, 100_500L, 100_501L, 299_999L);
                if (filter == null) {
                    assertThat(ids).hasSize(ROWS - 5);
                } else {
                    assertThat(ids).containsAll(range(100_502, 100_999)).contains(100_499L);
                }
            }
        }
    }

    private static List<Long> range(long lo, long hi) {
        List<Long> values = new ArrayList<>();
        for (long v = lo; v <= hi; v++) {
            values.add(v);
        }
        return values;
    }
}
