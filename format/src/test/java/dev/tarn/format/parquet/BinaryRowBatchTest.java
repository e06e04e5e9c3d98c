package dev.tarn.format.parquet;

import static dev.tarn.format.parquet.ParquetTestFiles.IO;
import static dev.tarn.format.parquet.ParquetTestFiles.length;
import static dev.tarn.format.parquet.ParquetTestFiles.path;
import static dev.tarn.format.parquet.ParquetTestFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.lsm.RowCopier;
import dev.tarn.format.row.BinaryRowBatch;
import dev.tarn.format.schema.TableConfig.FileCompression;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rows a columnar read moves into a {@link BinaryRowBatch} column by column are byte for byte the
 * rows Flink's layout gives the written values: nulls, inline and long strings, dictionary and
 * plain pages, compact decimals and timestamps.
 */
class BinaryRowBatchTest {

    @TempDir java.nio.file.Path dir;

    /** The flat types the transposer writes: compact decimals and timestamps only. */
    private static final RowType TRANSPOSED = transposedType();

    private static RowType transposedType() {
        List<RowType.RowField> fields = new ArrayList<>();
        for (RowType.RowField field : ParquetRoundTripTest.FLAT.getFields()) {
            LogicalType type = field.getType();
            boolean wide =
                    type instanceof DecimalType d && d.getPrecision() > 18
                            || type instanceof TimestampType t && t.getPrecision() > 3
                            || type instanceof LocalZonedTimestampType l && l.getPrecision() > 3;
            if (!wide) {
                fields.add(field);
            }
        }
        return new RowType(fields);
    }

    @Test
    void transposedRowsEqualFlinksLayoutOfTheWrittenRows() throws Exception {
        List<RowData> rows = ParquetRoundTripTest.randomRows(TRANSPOSED, 5000, 7);
        rows.add(ParquetRoundTripTest.nullRow(TRANSPOSED));
        Path file = path(dir, "flat.parquet");
        write(file, TRANSPOSED, ParquetRoundTripTest.smallGroups(), rows);

        Read read = read(file, TRANSPOSED);

        assertThat(read.transposed).isGreaterThan(rows.size() * 9L / 10);
        assertSameBytes(read.rows, rows, TRANSPOSED);
    }

    /** Dictionary ids, then plain values from inside a batch on: both paths of the reader. */
    @Test
    void transposedStringsFollowADictionaryFallback() throws Exception {
        RowType type = RowType.of(new VarCharType(VarCharType.MAX_LENGTH), new VarBinaryType(50));
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < 40_000; i++) {
            String s = i < 30_000 ? "v" + (i % 200) + "-long-enough" : "p" + i;
            rows.add(
                    GenericRowData.of(
                            i % 11 == 0 ? null : StringData.fromString(s),
                            s.substring(0, Math.min(s.length(), i % 13)).getBytes()));
        }
        Path file = path(dir, "fallback.parquet");
        write(
                file,
                type,
                new ParquetDataWriter.Options(FileCompression.NONE, 3, 1 << 26, 4096, true),
                rows);

        Read read = read(file, type);

        assertThat(read.transposed).isGreaterThan(rows.size() * 9L / 10);
        assertSameBytes(read.rows, rows, type);
    }

    @Test
    void typesWrittenRowByRowTransferNothing() throws Exception {
        List<RowData> rows = ParquetRoundTripTest.randomRows(ParquetRoundTripTest.FLAT, 100, 8);
        Path file = path(dir, "wide.parquet");
        write(file, ParquetRoundTripTest.FLAT, ParquetRoundTripTest.smallGroups(), rows);

        Read read = read(file, ParquetRoundTripTest.FLAT);

        assertThat(read.transposed).isZero();
        assertThat(read.rows).hasSize(rows.size());
    }

    private static void assertSameBytes(
            List<BinaryRowData> read, List<RowData> rows, RowType type) {
        RowCopier copier = new RowCopier(type);
        assertThat(read).hasSize(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            assertThat(read.get(i)).as("row %d", i).isEqualTo(copier.copy(rows.get(i)));
        }
    }

    private record Read(List<BinaryRowData> rows, long transposed) {}

    /** Every row: the first of each batch from next(), the rest moved in steps of 300. */
    private static Read read(Path file, RowType type) throws Exception {
        RowCopier copier = new RowCopier(type);
        List<BinaryRowData> rows = new ArrayList<>();
        BinaryRowBatch batch = new BinaryRowBatch(700);
        BinaryRowData view = new BinaryRowData(type.getFieldCount());
        long transposed = 0;
        try (ParquetDataReader reader =
                ParquetDataReader.open(IO, file, length(file), type, type, null, true)) {
            for (RowData row = reader.next(); row != null; row = reader.next()) {
                rows.add(copier.copy(row));
                int moved;
                while ((moved = reader.transferBuffered(batch, 300)) > 0) {
                    transposed += moved;
                    for (int i = batch.size() - moved; i < batch.size(); i++) {
                        batch.pointTo(view, i);
                        rows.add(copier.copy(view));
                    }
                    if (batch.remaining() < 300) {
                        batch.clear();
                    }
                }
            }
        }
        return new Read(rows, transposed);
    }
}
