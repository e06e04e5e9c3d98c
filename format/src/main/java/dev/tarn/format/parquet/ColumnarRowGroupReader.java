package dev.tarn.format.parquet;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.columnar.ColumnarRowData;
import org.apache.flink.table.data.columnar.vector.ColumnVector;
import org.apache.flink.table.data.columnar.vector.VectorizedColumnBatch;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.schema.MessageType;

import javax.annotation.Nullable;

/**
 * Reads rows of flat schemas column by column: each batch of up to {@link #BATCH_ROWS} rows is
 * decoded into one vector per column, then served as a reused {@link ColumnarRowData} that points
 * into the vectors. This skips Parquet's record assembly, which dominates the cost of flat reads.
 */
final class ColumnarRowGroupReader implements RowGroupReader {

    /** Rows per batch: large enough to amortize the per-column loop, small enough for L2. */
    static final int BATCH_ROWS = 2048;

    private final MessageType requested;
    private final String createdBy;
    private final VectorColumnReader[] columns;
    private final ColumnDescriptor[] descriptors;
    private final GroupConverter root;
    private final VectorizedColumnBatch batch;
    private final ColumnarRowData row;
    private long rowsLeftInGroup;
    private int rowsInBatch;
    private int nextRow;

    ColumnarRowGroupReader(MessageType requested, String createdBy, RowType readType) {
        this.requested = requested;
        this.createdBy = createdBy;
        int arity = readType.getFieldCount();
        this.columns = new VectorColumnReader[arity];
        this.descriptors = new ColumnDescriptor[arity];
        ColumnVector[] vectors = new ColumnVector[arity];
        for (int i = 0; i < arity; i++) {
            columns[i] = VectorColumnReaders.of(readType.getTypeAt(i), BATCH_ROWS);
            descriptors[i] = requested.getColumnDescription(new String[] {requested.getFieldName(i)});
            vectors[i] = columns[i].vector();
        }
        this.root =
                new GroupConverter() {
                    @Override
                    public Converter getConverter(int fieldIndex) {
                        return columns[fieldIndex];
                    }

                    @Override
                    public void start() {}

                    @Override
                    public void end() {}
                };
        this.batch = new VectorizedColumnBatch(vectors);
        this.row = new ColumnarRowData(batch);
    }

    @Override
    public void startRowGroup(PageReadStore pages) {
        ColumnReadStoreImpl store = new ColumnReadStoreImpl(pages, root, requested, createdBy);
        for (int i = 0; i < columns.length; i++) {
            columns[i].startRowGroup(store, descriptors[i]);
        }
        rowsLeftInGroup = pages.getRowCount();
        rowsInBatch = 0;
        nextRow = 0;
    }

    @Override
    @Nullable
    public RowData next() {
        if (nextRow == rowsInBatch) {
            if (rowsLeftInGroup == 0) {
                return null;
            }
            int rows = (int) Math.min(BATCH_ROWS, rowsLeftInGroup);
            for (VectorColumnReader column : columns) {
                column.readBatch(rows);
            }
            batch.setNumRows(rows);
            rowsLeftInGroup -= rows;
            rowsInBatch = rows;
            nextRow = 0;
        }
        row.setRowId(nextRow++);
        return row;
    }
}
