package dev.tarn.format.parquet;

import static dev.tarn.format.parquet.ParquetTestFiles.canonical;
import static dev.tarn.format.parquet.ParquetTestFiles.path;
import static dev.tarn.format.parquet.ParquetTestFiles.read;
import static dev.tarn.format.parquet.ParquetTestFiles.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.parquet.ParquetDataWriter.DataFileStats;
import dev.tarn.format.parquet.codec.TarnCodecFactory;
import dev.tarn.format.schema.TableConfig.FileCompression;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every codec writes what its name says and reads back; option values parse strictly. */
class ParquetCompressionTest {

    @TempDir java.nio.file.Path dir;

    private static final RowType TYPE =
            RowType.of(new BigIntType(), new VarCharType(VarCharType.MAX_LENGTH));

    /** Compressible rows: a counter and a repetitive sentence, without dictionary encoding. */
    private static List<RowData> rows() {
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            rows.add(
                    GenericRowData.of(
                            (long) i,
                            i % 13 == 0
                                    ? null
                                    : StringData.fromString("the same words again " + i)));
        }
        return rows;
    }

    @ParameterizedTest
    @EnumSource(FileCompression.class)
    void eachCodecRoundTripsAndIsRecordedInTheFile(FileCompression compression) throws Exception {
        Path file = path(dir, compression + ".parquet");
        List<RowData> rows = rows();
        DataFileStats stats =
                write(
                        file,
                        TYPE,
                        new ParquetDataWriter.Options(compression, 3, 1 << 20, 64 * 1024, false),
                        rows);

        assertThat(read(file, TYPE, TYPE, null, true))
                .containsExactlyElementsOf(canonical(rows, TYPE));
        assertThat(read(file, TYPE, TYPE, null, false))
                .containsExactlyElementsOf(canonical(rows, TYPE));
        assertThat(codecsOf(file))
                .containsOnly(
                        new ParquetDataWriter.Options(compression, 3, 1 << 20, 64 * 1024, true)
                                .codecName());
        if (compression != FileCompression.NONE) {
            Path plain = path(dir, "plain-" + compression + ".parquet");
            DataFileStats uncompressed =
                    write(
                            plain,
                            TYPE,
                            new ParquetDataWriter.Options(
                                    FileCompression.NONE, 3, 1 << 20, 64 * 1024, false),
                            rows);
            assertThat(stats.fileSize()).isLessThan(uncompressed.fileSize() / 2);
        }
    }

    private static List<CompressionCodecName> codecsOf(Path file) throws Exception {
        List<CompressionCodecName> codecs = FileCodecs.of(file);
        assertThat(codecs).isNotEmpty();
        return codecs;
    }

    @Test
    void aCodecTarnDoesNotHaveIsNamedWithTheOnesItHas() {
        assertThatThrownBy(
                        () -> new TarnCodecFactory().getDecompressor(CompressionCodecName.SNAPPY))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessage(
                        "Parquet codec SNAPPY is not supported: Tarn reads and writes ZSTD, LZ4_RAW,"
                                + " GZIP and UNCOMPRESSED");
    }

    @Test
    void optionValuesParseIgnoringCase() {
        assertThat(FileCompression.fromOption("ZSTD")).isEqualTo(FileCompression.ZSTD);
        assertThat(FileCompression.fromOption("gzip")).isEqualTo(FileCompression.GZIP);
        assertThat(FileCompression.fromOption("LZ4")).isEqualTo(FileCompression.LZ4);
        assertThat(FileCompression.fromOption("None")).isEqualTo(FileCompression.NONE);
        assertThat(FileCompression.fromOption("uncompressed")).isEqualTo(FileCompression.NONE);
        assertThatThrownBy(() -> FileCompression.fromOption("snappy"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Unknown Parquet compression 'snappy': expected one of zstd, lz4, gzip, none, uncompressed");
    }

    @Test
    void writeOptionsRejectNonsense() {
        assertThatThrownBy(
                        () -> new ParquetDataWriter.Options(FileCompression.ZSTD, 3, 0, 1024, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Parquet row group size must be positive, got 0");
        assertThat(ParquetDataWriter.Options.defaults().compression())
                .isEqualTo(FileCompression.ZSTD);
    }
}
