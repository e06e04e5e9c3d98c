package dev.tarn.format.parquet;

import dev.tarn.format.parquet.codec.TarnCodecFactory;
import dev.tarn.format.parquet.read.ParquetInputFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.fs.Path;
import org.apache.parquet.TarnParquetReadOptions;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/** The page codecs a Parquet file's footer records, for tests of any package. */
public final class FileCodecs {

    private FileCodecs() {}

    /** The codec of every column chunk of {@code file}, in order. */
    public static List<CompressionCodecName> of(Path file) throws IOException {
        ParquetInputFile input =
                new ParquetInputFile(ParquetTestFiles.IO, file, ParquetTestFiles.length(file));
        List<CompressionCodecName> codecs = new ArrayList<>();
        try (ParquetFileReader reader =
                ParquetFileReader.open(
                        input, TarnParquetReadOptions.create(new TarnCodecFactory()))) {
            for (BlockMetaData block : reader.getFooter().getBlocks()) {
                for (ColumnChunkMetaData column : block.getColumns()) {
                    codecs.add(column.getCodec());
                }
            }
        }
        return codecs;
    }
}
