package dev.tarn.format.parquet.read;

import dev.tarn.format.deletion.DeletionVector;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.row.BinaryRowBatch;
import java.io.IOException;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.columnar.vector.ColumnVector;
import org.apache.flink.table.data.columnar.vector.VectorizedColumnBatch;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.schema.MessageType;

/**
 * Reads rows of flat schemas column by column: each batch of up to {@link #BATCH_ROWS} rows (or as
 * many as asked for) is decoded into one vector per column by {@link FlatColumnReader}s, then
 * served as a reused {@link BatchRow} that points into the vectors. This skips Parquet's record
 * assembly and per-value column-reader bookkeeping, which dominate the cost of flat scans. With a
 * mapping, the decoded vectors of a file of an older schema version become the reading schema's
 * once per batch ({@link MappedVectors}), and the batch stays columnar. With a deletion vector
 * ({@link #startRowGroup(PageReadStore, DeletionVector, long)}) every batch is still decoded whole,
 * then served through a selection of the rows the vector keeps, so its rows are still transferred
 * column by column.
 */
public final class ColumnarRowGroupReader implements RowGroupReader {

    /** Rows per batch: large enough to amortize the per-column loop, small enough for L2. */
    public static final int BATCH_ROWS = 2048;

    private final FlatColumnReader[] columns;

    /** Decodes the columns of a batch on two threads; null: on the reader's alone. */
    @Nullable private final ColumnHalves halves;

    private final ColumnDescriptor[] descriptors;
    private final VectorizedColumnBatch batch;
    private final BatchRow row;
    private final int batchRows;
    @Nullable private final BinaryTransposer transposer;
    @Nullable private final MappedVectors mapped;
    private long groupRows;
    private long rowsLeftInGroup;

    /** The batch's rows served, ascending: all of them ({@link #all}) or those not deleted. */
    private int[] selection;

    /** The selection of a batch with deleted rows, allocated at the first such batch. */
    @Nullable private int[] kept;

    /** 0, 1, 2, ...: the selection of a batch without deleted rows. */
    private final int[] all;

    /** Rows in {@link #selection}; the next one served is {@code selection[nextRow]}. */
    private int rowsInBatch;

    private int nextRow;

    /** Index in the row group of the current batch's first row. */
    private long batchStart;

    /** Index in the batch of the row returned (or transferred) last. */
    private int lastRow = -1;

    @Nullable private DeletionVector deleted;

    /** Narrows each batch's selection to the rows a pushed filter keeps; null keeps all. */
    @Nullable private VectorFilter rowFilter;

    /**
     * A batch that serves fewer than one row in this many decodes its columns beyond the row
     * filter's only for the rows it serves.
     */
    private static final int SPARSE = 8;

    /** Per column, whether the row filter reads it: decoded before the others. */
    private boolean[] filterDecoded;

    /**
     * Whether the last batch served few rows ({@link #sparse}): the next decodes the row filter's
     * columns first. True before the first, so a selective filter never decodes a batch whole.
     */
    private boolean lastBatchSparse = true;

    /** The returned columns' type and vectors, for {@link #filterRows}. */
    private final RowType outType;

    private final ColumnVector[] outVectors;

    private final BytesColumnReader[] outStrings;

    /** Position in the file of the row group's first row: what {@link #deleted} counts from. */
    private long groupPosition;

    public ColumnarRowGroupReader(MessageType requested, RowType readType) {
        this(requested, readType, BATCH_ROWS);
    }

    /**
     * @param batchRows rows decoded per batch
     */
    public ColumnarRowGroupReader(MessageType requested, RowType readType, int batchRows) {
        this(requested, readType, batchRows, null);
    }

    /**
     * @param readType the file's columns to decode
     * @param mapping if not null, how the decoded columns become the returned ones ({@link
     *     MappedVectors#supports} them); null returns the decoded columns
     */
    public ColumnarRowGroupReader(
            MessageType requested,
            RowType readType,
            int batchRows,
            @Nullable ColumnMapping mapping) {
        int arity = readType.getFieldCount();
        this.batchRows = batchRows;
        this.columns = new FlatColumnReader[arity];
        this.descriptors = new ColumnDescriptor[arity];
        ColumnVector[] vectors = new ColumnVector[arity];
        BytesColumnReader[] bytes = new BytesColumnReader[arity];
        for (int i = 0; i < arity; i++) {
            descriptors[i] =
                    requested.getColumnDescription(new String[] {requested.getFieldName(i)});
            columns[i] = FlatColumnReaders.of(readType.getTypeAt(i), descriptors[i], batchRows);
            vectors[i] = columns[i].vector();
            bytes[i] = columns[i] instanceof BytesColumnReader reader ? reader : null;
        }
        RowType outType = readType;
        if (mapping != null) {
            this.mapped = MappedVectors.of(mapping, vectors, bytes, batchRows);
            vectors = mapped.vectors();
            bytes = mapped.bytes();
            outType = mapping.readType();
        } else {
            this.mapped = null;
        }
        BytesColumnReader[] strings = new BytesColumnReader[outType.getFieldCount()];
        for (int i = 0; i < strings.length; i++) {
            LogicalTypeRoot root = outType.getTypeAt(i).getTypeRoot();
            if (root == LogicalTypeRoot.CHAR || root == LogicalTypeRoot.VARCHAR) {
                strings[i] = bytes[i];
            }
        }
        this.halves = ColumnHalves.worthIt(arity) ? new ColumnHalves(columns) : null;
        this.outType = outType;
        this.outVectors = vectors;
        this.outStrings = strings;
        this.batch = new VectorizedColumnBatch(vectors);
        this.row = new BatchRow(batch, strings);
        this.transposer = BinaryTransposer.of(outType, vectors, bytes);
        this.all = new int[batchRows];
        for (int i = 0; i < batchRows; i++) {
            all[i] = i;
        }
        this.selection = all;
    }

    /**
     * Serves only the rows of each batch that {@code filter} may keep (see {@link VectorFilter}),
     * evaluated on the decoded columns after the deletion vector: fewer rows are transferred, and
     * {@link #buffered}, {@link #next} and {@link #transferBuffered} see only those. For rows read
     * one by one, never for rows merged afterwards. A filter no part of which can be evaluated on
     * the returned columns changes nothing. While batches keep few rows, each decodes the filter's
     * columns first and the others only for the rows kept. Not for a read through a mapping.
     */
    public void filterRows(Predicate filter) {
        if (mapped != null) {
            return; // the filter names the reading schema's columns, not the decoded ones
        }
        this.rowFilter =
                VectorFilter.of(
                        filter, outType, outVectors, new BatchRow(batch, outStrings), batchRows);
        this.filterDecoded = new boolean[columns.length];
        if (rowFilter != null) {
            for (int c : rowFilter.columns()) {
                filterDecoded[c] = true;
            }
        }
    }

    @Override
    public void startRowGroup(PageReadStore pages) throws IOException {
        startRowGroup(pages, null, 0);
    }

    /**
     * As {@link #startRowGroup(PageReadStore)}, skipping the rows whose positions {@code deleted}
     * holds, a row's position being {@code firstPosition} plus its index in the row group.
     *
     * @param deleted the file's deletion vector, unchanged while the row group is read; null (or
     *     empty) skips nothing
     * @param firstPosition the position in the file of the row group's first row
     */
    public void startRowGroup(
            PageReadStore pages, @Nullable DeletionVector deleted, long firstPosition)
            throws IOException {
        for (int i = 0; i < columns.length; i++) {
            columns[i].startRowGroup(pages.getPageReader(descriptors[i]));
        }
        this.deleted = deleted == null || deleted.isEmpty() ? null : deleted;
        this.groupPosition = firstPosition;
        groupRows = pages.getRowCount();
        rowsLeftInGroup = groupRows;
        batchStart = 0;
        rowsInBatch = 0;
        nextRow = 0;
        lastRow = -1;
    }

    @Override
    @Nullable
    public RowData next() throws IOException {
        while (nextRow == rowsInBatch) {
            if (rowsLeftInGroup == 0) {
                return null;
            }
            readBatch();
        }
        lastRow = selection[nextRow++];
        row.setRow(lastRow);
        return row;
    }

    /** Decodes the next batch of the row group and selects the rows it serves. */
    private void readBatch() throws IOException {
        batchStart = groupRows - rowsLeftInGroup;
        int rows = (int) Math.min(batchRows, rowsLeftInGroup);
        if (rowFilter != null && lastBatchSparse) {
            readFiltered(rows);
            return;
        }
        if (halves != null) {
            halves.readBatch(rows);
        } else {
            for (FlatColumnReader column : columns) {
                column.readBatch(rows);
            }
        }
        if (mapped != null) {
            mapped.convert(rows);
        }
        selectBatch(rows);
    }

    /** Makes the decoded batch of {@code rows} the current one and selects the rows it serves. */
    private void selectBatch(int rows) {
        batch.setNumRows(rows);
        rowsLeftInGroup -= rows;
        nextRow = 0;
        lastRow = -1;
        select(rows);
        lastBatchSparse = sparse(rows);
    }

    /**
     * Decodes the columns the row filter reads, selects the rows it keeps, then decodes the other
     * columns (on two threads where the reader would): if the filter kept few rows, only those
     * rows' values ({@link FlatColumnReader#readSelected}).
     */
    private void readFiltered(int rows) throws IOException {
        for (int c : rowFilter.columns()) {
            columns[c].readBatch(rows);
        }
        selectBatch(rows);
        int[] only = lastBatchSparse ? selection : null;
        if (halves != null) {
            halves.read(rows, filterDecoded, only, rowsInBatch);
            return;
        }
        for (int c = 0; c < columns.length; c++) {
            if (filterDecoded[c]) {
                continue;
            }
            if (only != null) {
                columns[c].readSelected(rows, only, rowsInBatch);
            } else {
                columns[c].readBatch(rows);
            }
        }
    }

    /**
     * Whether a batch of {@code rows} serves so few that its other columns are best decoded for
     * those rows alone; the next batch is then decoded the same way, filter columns first.
     */
    private boolean sparse(int rows) {
        return rowsInBatch * SPARSE < rows;
    }

    /**
     * Points {@link #selection} at the rows of the new batch of {@code rows} not deleted, and of
     * those the ones the row filter keeps.
     */
    private void select(int rows) {
        if (deleted == null && rowFilter == null) {
            selection = all;
            rowsInBatch = rows;
            return;
        }
        if (kept == null) {
            kept = new int[batchRows];
        }
        int count = rows;
        selection = all;
        if (deleted != null) {
            count = deleted.keptRows(groupPosition + batchStart, rows, kept);
            selection = count == rows ? all : kept;
        }
        if (rowFilter != null && count > 0) {
            count = rowFilter.filter(selection, count, kept);
            selection = kept;
        }
        rowsInBatch = count;
    }

    /** The index in the row group of the row returned or transferred last. */
    public long rowIndex() {
        return batchStart + lastRow;
    }

    @Override
    public int buffered() {
        return rowsInBatch - nextRow;
    }

    @Override
    public int transferBuffered(BinaryRowBatch out, int max) {
        if (transposer == null) {
            return 0;
        }
        int rows = Math.min(Math.min(max, out.remaining()), rowsInBatch - nextRow);
        if (rows > 0) {
            transposer.write(selection, nextRow, rows, out);
            nextRow += rows;
            lastRow = selection[nextRow - 1];
        }
        return rows;
    }
}
