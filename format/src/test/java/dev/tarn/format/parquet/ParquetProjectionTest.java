package dev.tarn.format.parquet;

import static dev.tarn.format.parquet.ParquetTestFiles.IO;
import static dev.tarn.format.parquet.ParquetTestFiles.canonical;
import static dev.tarn.format.parquet.ParquetTestFiles.length;
import static dev.tarn.format.parquet.ParquetTestFiles.path;
import static dev.tarn.format.parquet.ParquetTestFiles.read;
import static dev.tarn.format.parquet.ParquetTestFiles.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Reading a subset of a file's columns, in another order, and rejecting what does not match. */
class ParquetProjectionTest {

    @TempDir java.nio.file.Path dir;

    private static final RowType FILE =
            (RowType)
                    DataTypes.ROW(
                                    DataTypes.FIELD("id", DataTypes.BIGINT()),
                                    DataTypes.FIELD("name", DataTypes.STRING()),
                                    DataTypes.FIELD("tags", DataTypes.ARRAY(DataTypes.STRING())),
                                    DataTypes.FIELD("price", DataTypes.DECIMAL(10, 2)),
                                    DataTypes.FIELD("at", DataTypes.TIMESTAMP(3)))
                            .getLogicalType();

    @ParameterizedTest(name = "vectorized={0}")
    @ValueSource(booleans = {true, false})
    void readsASubsetOfColumnsInAnotherOrder(boolean vectorized) throws Exception {
        List<RowData> rows = ParquetRoundTripTest.randomRows(FILE, 3000, 7);
        Path file = path(dir, "p.parquet");
        write(file, FILE, ParquetRoundTripTest.smallGroups(), rows);
        RowType readType = project(4, 0, 3);

        List<RowData> expected = new ArrayList<>();
        for (RowData row : rows) {
            GenericRowData source = (GenericRowData) row;
            expected.add(
                    GenericRowData.of(source.getField(4), source.getField(0), source.getField(3)));
        }
        assertThat(read(file, FILE, readType, null, vectorized))
                .containsExactlyElementsOf(canonical(expected, readType));
    }

    @Test
    void projectsNestedAndFlatColumnsTogether() throws Exception {
        List<RowData> rows = ParquetRoundTripTest.randomRows(FILE, 500, 8);
        Path file = path(dir, "n.parquet");
        write(file, FILE, ParquetDataWriter.Options.defaults(), rows);
        RowType readType = project(2, 1);

        List<RowData> expected = new ArrayList<>();
        for (RowData row : rows) {
            GenericRowData source = (GenericRowData) row;
            expected.add(GenericRowData.of(source.getField(2), source.getField(1)));
        }
        assertThat(read(file, FILE, readType, null, true))
                .containsExactlyElementsOf(canonical(expected, readType));
    }

    @Test
    void readingNoColumnsStillCountsRows() throws Exception {
        Path file = path(dir, "e.parquet");
        write(
                file,
                FILE,
                ParquetDataWriter.Options.defaults(),
                ParquetRoundTripTest.randomRows(FILE, 42, 9));

        assertThat(read(file, FILE, project(), null, true)).hasSize(42);
    }

    @Test
    void rejectsAColumnTheFileTypeLacks() throws Exception {
        Path file = path(dir, "m.parquet");
        write(file, FILE, ParquetDataWriter.Options.defaults(), List.of());
        RowType readType =
                (RowType)
                        DataTypes.ROW(DataTypes.FIELD("missing", DataTypes.INT())).getLogicalType();

        assertThatThrownBy(
                        () -> ParquetDataReader.open(IO, file, length(file), FILE, readType, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Cannot read column missing from " + file)
                .hasMessageContaining("has no such column");
    }

    @Test
    void rejectsAReadTypeThatDiffersFromTheFile() throws Exception {
        Path file = path(dir, "t.parquet");
        write(file, FILE, ParquetDataWriter.Options.defaults(), List.of());
        RowType readType =
                (RowType) DataTypes.ROW(DataTypes.FIELD("id", DataTypes.INT())).getLogicalType();

        assertThatThrownBy(
                        () -> ParquetDataReader.open(IO, file, length(file), FILE, readType, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Cannot read column id from " + file + " as INT")
                .hasMessageContaining("holds it as BIGINT");
    }

    @Test
    void rejectsAFileThatDoesNotStoreItsDeclaredType() throws Exception {
        Path file = path(dir, "d.parquet");
        RowType written =
                (RowType) DataTypes.ROW(DataTypes.FIELD("id", DataTypes.INT())).getLogicalType();
        write(file, written, ParquetDataWriter.Options.defaults(), List.of(GenericRowData.of(1)));
        RowType claimed =
                (RowType) DataTypes.ROW(DataTypes.FIELD("id", DataTypes.BIGINT())).getLogicalType();

        assertThatThrownBy(
                        () ->
                                ParquetDataReader.open(
                                        IO, file, length(file), claimed, claimed, null))
                .isInstanceOf(java.io.IOException.class)
                .hasMessageContaining("Cannot read column id from " + file)
                .hasMessageContaining("stores optional int32 id");
    }

    private static RowType project(int... fields) {
        List<RowType.RowField> projected = new ArrayList<>();
        for (int field : fields) {
            projected.add(FILE.getFields().get(field));
        }
        return new RowType(projected);
    }
}
