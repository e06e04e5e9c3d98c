package dev.tarn.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.junit.jupiter.api.Test;

/** The rows the benchmarks' floors hold are the generator's, as the tables they stand beside. */
class FloorSourcesTest {

    @Test
    void theArrayDimensionHoldsRowXMinusOneOfTheGeneratorAtIdX() {
        BenchGenFactory.Rows generator = new BenchGenFactory.Rows(100, 0);
        List<RowData>[] rows = ArrayDimensionFactory.rows(100, new int[] {2, 0, 1});

        assertThat(rows).hasSize(101);
        assertThat(rows[0]).isNull();
        for (int id = 1; id <= 100; id++) {
            RowData source = generator.row(id - 1);
            assertThat(rows[id]).hasSize(1);
            RowData row = rows[id].get(0);
            assertThat(row.getArity()).isEqualTo(3);
            assertThat(row.getInt(0)).isEqualTo(source.getInt(1) % 10);
            assertThat(row.getLong(1)).isEqualTo(id);
            assertThat(row.getString(2)).isEqualTo(source.getString(2));
        }
    }

    @Test
    void theReplayHoldsTheGeneratorsFirstRowsAsBinaryRows() {
        BenchGenFactory.Rows generator = new BenchGenFactory.Rows(10, 0);
        BinaryRowData[] rows = ReplaySourceFactory.rows();

        for (int i = 0; i < 10; i++) {
            RowData source = generator.row(i);
            assertThat(rows[i].getLong(0)).isEqualTo(source.getLong(0));
            assertThat(rows[i].getInt(1)).isEqualTo(source.getInt(1));
            assertThat(rows[i].getString(2)).isEqualTo(source.getString(2));
            assertThat(rows[i].getString(3)).isEqualTo(source.getString(3));
            assertThat(rows[i].getDouble(4)).isEqualTo(source.getDouble(4));
            assertThat(rows[i].getInt(5)).isEqualTo(source.getInt(5));
            assertThat(rows[i].getTimestamp(6, 3)).isEqualTo(source.getTimestamp(6, 3));
            assertThat(rows[i].getBoolean(7)).isEqualTo(source.getBoolean(7));
        }
    }
}
