package dev.tarn.format.parquet;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.MessageType;

/**
 * Writes rows whose columns are all atomic straight into Parquet's per-column {@link
 * ColumnWriter}s, without the record assembly of {@link RecordRowWriter}: a null is a null of the
 * column's writer, any other value goes through the column's {@link AtomicWriters} writer. Pages,
 * dictionaries, statistics and page indexes are Parquet's own, and row groups are cut by the same
 * rule as Parquet's record writer, so both write the same bytes for the same rows.
 *
 * <p>Invariant: {@code leaves[i]} and {@code values[i]} belong to the open row group's store and to
 * column {@code i} of the row type, which is leaf {@code i} of the schema.
 */
final class FlatRowWriter implements ParquetRowWriter {

    /** Parquet's default; Tarn's output files have no block size, so nothing is ever padded. */
    private static final int MAX_PADDING_BYTES = ParquetWriter.MAX_PADDING_SIZE_DEFAULT;

    private final RowType rowType;
    private final MessageType schema;
    private final ParquetProperties props;
    private final TarnCodecFactory codecs = new TarnCodecFactory();
    private final BytesInputCompressor compressor;
    private final ParquetFileWriter file;
    private final long rowGroupSize;
    private final int rowGroupRowLimit;
    private final Map<String, String> metadata;
    private final ColumnWriter[] leaves;
    private final FieldWriter[] values;

    private ColumnChunkPageWriteStore pages;
    private ColumnWriteStore columns;
    private int rowGroupOrdinal;
    private long groupRows;
    private long nextSizeCheck;
    private long nextRowGroupSize;
    private long lastRowGroupEnd;

    FlatRowWriter(
            ParquetOutputFile out,
            RowType rowType,
            ParquetWriteOptions options,
            WriterVersion version)
            throws IOException {
        checkFlat(rowType);
        this.rowType = rowType;
        this.schema = ParquetSchemas.toMessageType(rowType);
        this.props =
                ParquetProperties.builder()
                        .withPageSize(options.pageSize())
                        .withDictionaryPageSize(options.pageSize())
                        .withDictionaryEncoding(options.dictionary())
                        .withSizeStatisticsEnabled(false)
                        .withWriterVersion(version)
                        .withValuesWriterFactory(new TarnValuesWriterFactory())
                        .build();
        this.compressor = codecs.getCompressor(options.compression().codecName());
        this.rowGroupSize = options.rowGroupSize();
        this.rowGroupRowLimit = props.getRowGroupRowCountLimit();
        this.metadata =
                new HashMap<>(
                        Map.of(RowDataWriteSupport.ROW_TYPE_KEY, rowType.asSerializableString()));
        this.leaves = new ColumnWriter[rowType.getFieldCount()];
        this.values = new FieldWriter[rowType.getFieldCount()];
        this.file =
                new ParquetFileWriter(
                        out,
                        schema,
                        ParquetFileWriter.Mode.CREATE,
                        rowGroupSize,
                        MAX_PADDING_BYTES,
                        null,
                        props);
        file.start();
        this.nextRowGroupSize = rowGroupSize;
        this.nextSizeCheck = props.getMinRowCountForPageSizeCheck();
        openRowGroup();
    }

    /** Whether every column of {@code rowType} is atomic, so this writer can write its rows. */
    static boolean supports(RowType rowType) {
        for (LogicalType type : rowType.getChildren()) {
            switch (type.getTypeRoot()) {
                case ARRAY, MAP, MULTISET, ROW -> {
                    return false;
                }
                default -> {}
            }
        }
        return true;
    }

    @Override
    public void write(RowData row) throws IOException {
        ColumnWriter[] leaves = this.leaves;
        FieldWriter[] values = this.values;
        for (int i = 0; i < leaves.length; i++) {
            if (row.isNullAt(i)) {
                leaves[i].writeNull(0, 0);
            } else {
                values[i].write(row, i);
            }
        }
        columns.endRecord();
        if (++groupRows >= nextSizeCheck || groupRows >= rowGroupRowLimit) {
            checkRowGroupSize();
        }
    }

    @Override
    public long dataSize() {
        return lastRowGroupEnd + columns.getBufferedSize();
    }

    @Override
    public ParquetMetadata finish() throws IOException {
        try {
            flushRowGroup();
            file.end(metadata);
            return file.getFooter();
        } finally {
            codecs.release();
        }
    }

    @Override
    public void abort() {
        codecs.release();
    }

    private void openRowGroup() {
        pages =
                new ColumnChunkPageWriteStore(
                        compressor,
                        schema,
                        props.getAllocator(),
                        props.getColumnIndexTruncateLength(),
                        props.getPageWriteChecksumEnabled(),
                        file.getEncryptor(),
                        rowGroupOrdinal);
        columns = props.newColumnWriteStore(schema, pages, pages);
        List<ColumnDescriptor> descriptors = schema.getColumns();
        for (int i = 0; i < leaves.length; i++) {
            leaves[i] = columns.getColumnWriter(descriptors.get(i));
            values[i] = AtomicWriters.of(rowType.getTypeAt(i), new LeafValueConsumer(leaves[i]));
        }
    }

    /**
     * Parquet's rule for cutting row groups: check the buffered size after a number of rows
     * estimated to reach half the remaining space, and close the row group when the next two rows
     * might not fit.
     */
    private void checkRowGroupSize() throws IOException {
        int minRows = props.getMinRowCountForPageSizeCheck();
        int maxRows = props.getMaxRowCountForPageSizeCheck();
        long bufferedBytes = columns.getBufferedSize();
        long rowBytes = bufferedBytes / groupRows;
        if (groupRows >= rowGroupRowLimit || bufferedBytes > nextRowGroupSize - 2 * rowBytes) {
            flushRowGroup();
            openRowGroup();
            // As Parquet's writer does, check a new row group after its first few rows.
            nextSizeCheck = Math.min(minRows, maxRows);
            lastRowGroupEnd = file.getPos();
        } else {
            long halfway = (groupRows + (long) (nextRowGroupSize / ((float) rowBytes))) / 2;
            nextSizeCheck = Math.min(Math.max(minRows, halfway), groupRows + maxRows);
        }
    }

    private void flushRowGroup() throws IOException {
        try {
            if (groupRows > 0) {
                rowGroupOrdinal++;
                file.startBlock(groupRows);
                columns.flush();
                pages.flushToFileWriter(file);
                groupRows = 0;
                file.endBlock();
                nextRowGroupSize = Math.min(file.getNextRowGroupSize(), rowGroupSize);
            }
        } finally {
            columns.close();
            pages.close();
        }
    }

    private static void checkFlat(RowType rowType) {
        if (!supports(rowType)) {
            throw new IllegalArgumentException(
                    "Cannot write rows of type "
                            + rowType.asSummaryString()
                            + " column by column: a column is nested");
        }
    }
}
