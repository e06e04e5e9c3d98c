package dev.tarn.format.parquet.write;

import dev.tarn.format.parquet.codec.TarnCodecFactory;
import java.io.IOException;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * Writes rows of any supported type through Parquet's {@link ParquetWriter}, one record at a time
 * ({@link RowDataWriteSupport}). Hadoop is never configured: the configuration is a {@link
 * PlainParquetConfiguration} and codecs come from {@link TarnCodecFactory}.
 */
public final class RecordRowWriter implements ParquetRowWriter {

    private final TarnCodecFactory codecs = new TarnCodecFactory();
    private final ParquetWriter<RowData> writer;

    public RecordRowWriter(
            ParquetOutputFile file, RowType rowType, PageLayout options, WriterVersion version)
            throws IOException {
        this.writer =
                new Builder(file, new RowDataWriteSupport(rowType, options.fieldIds()))
                        .withConf(new PlainParquetConfiguration())
                        .withCodecFactory(codecs)
                        .withCompressionCodec(options.codec())
                        .withWriteMode(ParquetFileWriter.Mode.CREATE)
                        .withRowGroupSize(options.rowGroupSize())
                        .withPageSize(options.pageSize())
                        .withDictionaryPageSize(options.pageSize())
                        .withDictionaryEncoding(options.dictionary())
                        .withValidation(false)
                        .withSizeStatisticsEnabled(false)
                        .withWriterVersion(version)
                        .build();
    }

    @Override
    public void write(RowData row) throws IOException {
        writer.write(row);
    }

    @Override
    public long dataSize() {
        return writer.getDataSize();
    }

    /** Parquet's writer releases the codecs when it closes, failing or not. */
    @Override
    public ParquetMetadata finish() throws IOException {
        writer.close();
        return writer.getFooter();
    }

    @Override
    public void abort() {
        codecs.release();
    }

    /** Parquet's builder bound to Tarn's write support; Hadoop is never configured. */
    private static final class Builder extends ParquetWriter.Builder<RowData, Builder> {
        private final RowDataWriteSupport support;

        Builder(ParquetOutputFile file, RowDataWriteSupport support) {
            super(file);
            this.support = support;
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected WriteSupport<RowData> getWriteSupport(ParquetConfiguration conf) {
            return support;
        }

        @Override
        protected WriteSupport<RowData> getWriteSupport(Configuration conf) {
            return support;
        }
    }
}
