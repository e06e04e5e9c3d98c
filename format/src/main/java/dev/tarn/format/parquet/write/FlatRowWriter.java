package dev.tarn.format.parquet.write;

import dev.tarn.format.parquet.codec.TarnCodecFactory;
import dev.tarn.format.parquet.schema.ParquetSchemas;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.MessageType;

/**
 * Writes rows whose columns are all atomic, column by column: each column's values go to its own
 * {@link ColumnChunkWriter}, which encodes v1 pages and hands them to Parquet's page store (page
 * compression, page indexes, footer). A null is a null of the column's writer, any other value goes
 * through the column's {@link AtomicWriters} writer. Row groups are cut by Parquet's record
 * writer's rule, and pages at Parquet's page size and row count limits, so files are laid out as
 * Parquet's writer lays them out, with the same encodings.
 *
 * <p>Invariant: {@code columns[i]} and {@code values[i]} belong to column {@code i} of the row
 * type, which is leaf {@code i} of the schema, and {@code columns[i]} writes to the open row
 * group's page store.
 */
public final class FlatRowWriter implements ParquetRowWriter {

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
    private final ColumnChunkWriter[] columns;
    private final AtomicWriters.Atomic[] values;

    private ColumnChunkPageWriteStore pages;
    private int rowGroupOrdinal;
    private long groupRows;
    private long nextSizeCheck;
    private long nextRowGroupSize;
    private long lastRowGroupEnd;

    public FlatRowWriter(ParquetOutputFile out, RowType rowType, PageLayout options)
            throws IOException {
        checkFlat(rowType);
        this.rowType = rowType;
        this.schema = ParquetSchemas.toMessageType(rowType, options.fieldIds());
        this.props =
                ParquetProperties.builder()
                        .withPageSize(options.pageSize())
                        .withSizeStatisticsEnabled(false)
                        .withWriterVersion(WriterVersion.PARQUET_1_0)
                        .build();
        this.compressor = codecs.getCompressor(options.codec());
        this.rowGroupSize = options.rowGroupSize();
        this.rowGroupRowLimit = props.getRowGroupRowCountLimit();
        this.metadata =
                new HashMap<>(
                        Map.of(RowDataWriteSupport.ROW_TYPE_KEY, rowType.asSerializableString()));
        this.columns = new ColumnChunkWriter[rowType.getFieldCount()];
        this.values = new AtomicWriters.Atomic[rowType.getFieldCount()];
        List<ColumnDescriptor> descriptors = schema.getColumns();
        for (int i = 0; i < columns.length; i++) {
            columns[i] = columnWriter(descriptors.get(i), options, props.getPageRowCountLimit());
            values[i] = AtomicWriters.of(rowType.getTypeAt(i), columns[i]);
        }
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
    public static boolean supports(RowType rowType) {
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
        ColumnChunkWriter[] columns = this.columns;
        AtomicWriters.Atomic[] values = this.values;
        for (int i = 0; i < columns.length; i++) {
            if (row.isNullAt(i)) {
                columns[i].writeNull();
            } else {
                values[i].write(row, i);
            }
        }
        if (++groupRows >= nextSizeCheck || groupRows >= rowGroupRowLimit) {
            checkRowGroupSize();
        }
    }

    @Override
    public long dataSize() {
        return lastRowGroupEnd + bufferedSize();
    }

    private long bufferedSize() {
        long size = 0;
        for (ColumnChunkWriter column : columns) {
            size += column.bufferedSize();
        }
        return size;
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
        List<ColumnDescriptor> descriptors = schema.getColumns();
        for (int i = 0; i < columns.length; i++) {
            columns[i].startChunk(pages.getPageWriter(descriptors.get(i)));
        }
    }

    private static ColumnChunkWriter columnWriter(
            ColumnDescriptor column, PageLayout options, int pageValueLimit) {
        int pageSize = options.pageSize();
        return switch (column.getPrimitiveType().getPrimitiveTypeName()) {
            case BOOLEAN -> new BooleanColumnWriter(column, pageSize, pageValueLimit);
            case INT32, INT64, FLOAT, DOUBLE ->
                    new NumberColumnWriter(column, pageSize, pageValueLimit, options.dictionary());
            case BINARY, FIXED_LEN_BYTE_ARRAY, INT96 ->
                    new BinaryColumnWriter(column, pageSize, pageValueLimit, options.dictionary());
        };
    }

    /**
     * Parquet's rule for cutting row groups: check the buffered size after a number of rows
     * estimated to reach half the remaining space, and close the row group when the next two rows
     * might not fit.
     */
    private void checkRowGroupSize() throws IOException {
        int minRows = props.getMinRowCountForPageSizeCheck();
        int maxRows = props.getMaxRowCountForPageSizeCheck();
        long bufferedBytes = bufferedSize();
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
                for (ColumnChunkWriter column : columns) {
                    column.finishChunk();
                }
                pages.flushToFileWriter(file);
                groupRows = 0;
                file.endBlock();
                nextRowGroupSize = Math.min(file.getNextRowGroupSize(), rowGroupSize);
            }
        } finally {
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
