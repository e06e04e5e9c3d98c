package dev.tarn.format.parquet;

import dev.tarn.format.deletion.DeletionVector;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.parquet.codec.TarnCodecFactory;
import dev.tarn.format.parquet.read.ColumnMapping;
import dev.tarn.format.parquet.read.ColumnarRowGroupReader;
import dev.tarn.format.parquet.read.FlatColumnReaders;
import dev.tarn.format.parquet.read.MappedVectors;
import dev.tarn.format.parquet.read.ParquetInputFile;
import dev.tarn.format.parquet.read.RecordRowGroupReader;
import dev.tarn.format.parquet.read.RowGroupReader;
import dev.tarn.format.parquet.schema.ParquetSchemas;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.row.BinaryRowBatch;
import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import java.util.PrimitiveIterator;
import java.util.function.UnaryOperator;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.TarnParquetReadOptions;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.filter2.statisticslevel.StatisticsFilter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.schema.MessageType;

/**
 * Reads the rows of one Parquet data file, projected to a read type and skipping row groups whose
 * statistics prove that no row can match a filter. Rows of the row groups it reads are returned
 * unfiltered unless it is asked to {@linkplain #filterRows filter them}, and even then only where
 * they are decoded column by column: the caller still applies the filter. Flat projections are
 * decoded column by column ({@link ColumnarRowGroupReader}), nested ones record by record ({@link
 * RecordRowGroupReader}). With a deletion vector ({@link #withDeletions}) it skips the rows the
 * vector holds, and still transfers the others column by column.
 *
 * <p>It stays over 400 lines: its open overloads are the parquet package's door for every reader of
 * the format, and the walk over row groups keeps one state (the row group, the position of its
 * rows, skipped pages and deleted rows) that {@link #next}, {@link #transferBuffered} and {@link
 * #skip} all move; split apart, each half would need the other's fields.
 *
 * <p>Not thread-safe. The row object {@link #next()} returns is reused by the next call, but the
 * values read from it (strings, binaries, decimals, timestamps, arrays, maps, rows) are not: they
 * stay valid and unchanged.
 */
public final class ParquetDataReader implements Closeable {

    private final Path path;
    private final ParquetInputFile file;
    private final ParquetFileReader reader;
    private final List<BlockMetaData> rowGroups;
    @Nullable private final FilterPredicate filter;

    /** The filter as given, for {@link #filterRows}. */
    @Nullable private final Predicate predicate;

    /** Whether {@link #filterRows} was called: row groups then hold fewer rows than they count. */
    private boolean rowsFiltered;

    private final RowGroupReader rows;

    /** {@link #rows} if it decodes column by column (it then skips deleted rows itself). */
    @Nullable private final ColumnarRowGroupReader columnar;

    private final RowGroupReader partialRows;
    @Nullable private PageReadStore pages;
    private RowGroupReader current;
    private int nextRowGroup;
    private long skipped;
    @Nullable private UnaryOperator<RowData> mapping;

    /** The position (row index in the file) of each row group's first row. */
    private final long[] groupStarts;

    @Nullable private DeletionVector deleted;
    private long groupStart;

    /** Rows the record reader returned from a whole row group (its row indexes). */
    private long returnedInGroup;

    /** A partial row group's row indexes (within the group), in the order its rows come. */
    @Nullable private PrimitiveIterator.OfLong rowIndexes;

    private long position = -1;

    private ParquetDataReader(
            Path path,
            ParquetInputFile file,
            ParquetFileReader reader,
            @Nullable FilterPredicate filter,
            @Nullable Predicate predicate,
            RowGroupReader rows,
            RowGroupReader partialRows) {
        this.path = path;
        this.file = file;
        this.reader = reader;
        this.rowGroups = reader.getRowGroups();
        this.filter = filter;
        this.predicate = predicate;
        this.rows = rows;
        this.columnar = rows instanceof ColumnarRowGroupReader c ? c : null;
        this.partialRows = partialRows;
        this.groupStarts = new long[rowGroups.size()];
        long start = 0;
        for (int i = 0; i < rowGroups.size(); i++) {
            groupStarts[i] = start;
            start += rowGroups.get(i).getRowCount();
        }
    }

    /**
     * Opens {@code path}, of {@code fileLength} bytes, written with row type {@code fileType}.
     *
     * @param readType the columns to return, by name a subset of {@code fileType} in any order
     * @param filter if not null, row groups it cannot match are skipped; its field names refer to
     *     the file's columns
     * @throws FileNotFoundException if the file does not exist
     * @throws IOException if the file is not a valid Parquet file or lacks a column of readType
     */
    public static ParquetDataReader open(
            FileIO io,
            Path path,
            long fileLength,
            RowType fileType,
            RowType readType,
            @Nullable Predicate filter)
            throws IOException {
        return open(io, path, fileLength, fileType, readType, filter, true, 0, null);
    }

    /**
     * As {@link #open(FileIO, Path, long, RowType, RowType, Predicate)}, decoding flat columns
     * {@code batchRows} rows at a time: more than the default suits a reader whose batches cross
     * threads, so fewer hand-overs are paid.
     */
    public static ParquetDataReader open(
            FileIO io,
            Path path,
            long fileLength,
            RowType fileType,
            RowType readType,
            @Nullable Predicate filter,
            int batchRows)
            throws IOException {
        return open(io, path, fileLength, fileType, readType, filter, true, batchRows, null);
    }

    /**
     * Opens a file written with the columns {@code columns.fileType()} (those to read, under the
     * file's names) and returns rows of {@code columns.readType()}. A columnar read maps the
     * decoded vectors once per batch ({@link MappedVectors}) and stays columnar; any other read
     * returns {@code rows} of each decoded row.
     *
     * @param rows the same mapping, row by row: a reused row of the read type from a decoded row
     */
    public static ParquetDataReader open(
            FileIO io,
            Path path,
            long fileLength,
            ColumnMapping columns,
            UnaryOperator<RowData> rows,
            int batchRows)
            throws IOException {
        boolean byVectors = MappedVectors.supports(columns);
        ParquetDataReader reader =
                open(
                        io,
                        path,
                        fileLength,
                        columns.fileType(),
                        columns.fileType(),
                        null,
                        true,
                        batchRows,
                        byVectors ? columns : null);
        return byVectors && reader.rows instanceof ColumnarRowGroupReader
                ? reader
                : reader.mapRows(rows);
    }

    /** As the public {@code open}; {@code vectorized} false forces record-by-record reading. */
    static ParquetDataReader open(
            FileIO io,
            Path path,
            long fileLength,
            RowType fileType,
            RowType readType,
            @Nullable Predicate filter,
            boolean vectorized)
            throws IOException {
        return open(io, path, fileLength, fileType, readType, filter, vectorized, 0, null);
    }

    /**
     * {@code batchRows} 0 takes the default batch; {@code mapping}: the columnar reader's, if it is
     * columnar (see {@link ColumnMapping}).
     */
    private static ParquetDataReader open(
            FileIO io,
            Path path,
            long fileLength,
            RowType fileType,
            RowType readType,
            @Nullable Predicate filter,
            boolean vectorized,
            int batchRows,
            @Nullable ColumnMapping mapping)
            throws IOException {
        ParquetInputFile file = new ParquetInputFile(io, path, fileLength);
        // Tarn wrote the file, so its Parquet schema follows from its row type: the filter can be
        // converted before the footer is read. Row groups are skipped by statistics of any
        // column; pages only by columns that are read (Parquet takes a column missing from the
        // projection for all nulls).
        FilterPredicate converted =
                filter == null
                        ? null
                        : ParquetFilters.convert(filter, ParquetSchemas.toMessageType(fileType));
        FilterPredicate pageFilter =
                filter == null
                        ? null
                        : ParquetFilters.convert(filter, ParquetSchemas.toMessageType(readType));
        ParquetFileReader reader;
        try {
            reader =
                    ParquetFileReader.open(
                            file,
                            TarnParquetReadOptions.create(new TarnCodecFactory(), pageFilter));
        } catch (FileNotFoundException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw ParquetReadErrors.notParquet(path, "footer", e);
        }
        try {
            MessageType fileSchema = reader.getFooter().getFileMetaData().getSchema();
            MessageType requested = RequestedSchema.of(path, fileSchema, fileType, readType);
            reader.setRequestedSchema(requested);
            boolean flat = readType.getChildren().stream().allMatch(FlatColumnReaders::supports);
            RowGroupReader records = new RecordRowGroupReader(requested, fileSchema, readType);
            RowGroupReader rows =
                    vectorized && flat
                            ? new ColumnarRowGroupReader(
                                    requested,
                                    readType,
                                    batchRows > 0 ? batchRows : ColumnarRowGroupReader.BATCH_ROWS,
                                    mapping)
                            : records;
            return new ParquetDataReader(path, file, reader, converted, filter, rows, records);
        } catch (IOException | RuntimeException e) {
            reader.close();
            throw e;
        }
    }

    /**
     * Reads the footer of {@code path}, of {@code fileLength} bytes, and returns the row count it
     * records, without reading any row group: what an integrity check needs to tell a data file
     * that opens from a damaged one.
     *
     * @throws FileNotFoundException if the file does not exist
     * @throws IOException naming the file if its footer does not read as Parquet
     */
    public static long footerRowCount(FileIO io, Path path, long fileLength) throws IOException {
        ParquetInputFile file = new ParquetInputFile(io, path, fileLength);
        try (ParquetFileReader reader =
                ParquetFileReader.open(
                        file, TarnParquetReadOptions.create(new TarnCodecFactory()))) {
            return reader.getRecordCount();
        } catch (FileNotFoundException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw ParquetReadErrors.notParquet(path, "footer", e);
        }
    }

    /**
     * Makes {@link #next} return {@code mapping} of each decoded row (which may reuse its result
     * object between calls): how a file written under an older schema is read through a newer one.
     * Rows are then no longer transferred column by column.
     */
    public ParquetDataReader mapRows(UnaryOperator<RowData> mapping) {
        this.mapping = mapping;
        return this;
    }

    /**
     * Makes the reader skip the rows at the positions {@code vector} holds (a data file's deletion
     * vector, SPEC.md "Deletion vectors"), which it must not change while this reader reads. A
     * columnar read still decodes whole batches and {@linkplain #transferBuffered transfers} the
     * rows the vector keeps; {@link #buffered} counts only those. Call before the first row.
     */
    public ParquetDataReader withDeletions(@Nullable DeletionVector vector) {
        this.deleted = vector == null || vector.isEmpty() ? null : vector;
        return this;
    }

    /**
     * Makes a columnar read also drop, within each batch, the rows the filter given at opening
     * surely does not match (evaluated on the decoded columns, after the deletion vector), so only
     * rows it may match are returned and transferred. Only for rows that are not merged afterwards
     * (an append file, a file read with its deletion vector). Rows of a row group read record by
     * record (one whose pages the filter thinned) are returned unfiltered, as are those of a file
     * read through a column mapping, which has no filter. Call before the first row.
     */
    public ParquetDataReader filterRows() {
        if (predicate != null && columnar != null) {
            columnar.filterRows(predicate);
            rowsFiltered = true;
        }
        return this;
    }

    /** The position in the file (0 for its first row) of the row {@link #next} returned last. */
    public long position() {
        return position;
    }

    /** The next row, or null at the end of the file; the row object is reused by the next call. */
    @Nullable
    public RowData next() throws IOException {
        while (true) {
            if (pages != null) {
                RowData row;
                try {
                    row = current.next();
                } catch (IOException | RuntimeException e) {
                    throw ParquetReadErrors.notParquet(path, "row group " + (nextRowGroup - 1), e);
                }
                if (row != null) {
                    if (current == columnar) {
                        // It skipped the deleted rows itself.
                        position = groupStart + columnar.rowIndex();
                    } else {
                        position =
                                groupStart
                                        + (rowIndexes != null
                                                ? rowIndexes.nextLong()
                                                : returnedInGroup++);
                        if (deleted != null && deleted.contains(position)) {
                            continue;
                        }
                    }
                    return mapping == null ? row : mapping.apply(row);
                }
            }
            if (!advance()) {
                return null;
            }
        }
    }

    /**
     * Rows decoded and not returned yet, which {@link #next} returns without decoding (and so
     * without reading the file): a batch of a columnar read.
     */
    public int buffered() {
        return pages == null ? 0 : current.buffered();
    }

    /**
     * Moves up to {@code max} of the {@link #buffered} rows into {@code out}, written column by
     * column as Flink binary rows (INSERTs), as if {@link #next} had returned them; returns how
     * many. 0 when nothing is buffered, or the columns' types are written row by row only.
     */
    public int transferBuffered(BinaryRowBatch out, int max) {
        if (pages == null || mapping != null || current != columnar) {
            return 0;
        }
        int moved = columnar.transferBuffered(out, max);
        if (moved > 0) {
            position = groupStart + columnar.rowIndex();
        }
        return moved;
    }

    /**
     * Moves past the next {@code rows} rows, as many calls of {@link #next} would, but without
     * reading or decoding the row groups it passes whole where no filter could thin them (the
     * position a restored reader seeks to).
     *
     * @return the rows skipped: {@code rows}, or fewer at the end of the file
     */
    public long skip(long rows) throws IOException {
        long left = rows;
        while (left > 0) {
            if (pages == null
                    && filter == null
                    && !rowsFiltered
                    && nextRowGroup < rowGroups.size()) {
                long inGroup = liveRows(nextRowGroup);
                if (inGroup <= left) {
                    nextRowGroup++;
                    left -= inGroup;
                    continue;
                }
            }
            if (next() == null) {
                break;
            }
            left--;
        }
        return rows - left;
    }

    /** The rows of row group {@code index} that {@link #next} returns without a filter. */
    private long liveRows(int index) {
        long rows = rowGroups.get(index).getRowCount();
        if (deleted == null) {
            return rows;
        }
        long end = groupStarts[index] + rows;
        long live = rows;
        for (long d = deleted.nextDeleted(groupStarts[index]);
                d >= 0 && d < end;
                d = deleted.nextDeleted(d + 1)) {
            live--;
        }
        return live;
    }

    /**
     * Moves to the next row group that may match the filter; false at the end of the file. With a
     * filter, only the pages whose rows may match are read (Parquet's column indexes); such a
     * partial row group is decoded record by record, since its columns' pages no longer line up.
     */
    private boolean advance() throws IOException {
        closePages();
        while (nextRowGroup < rowGroups.size()) {
            int index = nextRowGroup++;
            BlockMetaData rowGroup = rowGroups.get(index);
            if (canSkip(rowGroup)) {
                skipped++;
                continue;
            }
            String where = "row group " + index;
            try {
                // Without a page filter this reads the whole row group.
                pages = reader.readFilteredRowGroup(index);
            } catch (RuntimeException e) {
                throw ParquetReadErrors.notParquet(path, where, e);
            } catch (IOException e) {
                throw ParquetReadErrors.corrupt(e)
                        ? ParquetReadErrors.notParquet(path, where, e)
                        : e;
            }
            if (pages == null || pages.getRowCount() == 0) {
                // No page of this row group can match.
                closePages();
                skipped++;
                continue;
            }
            try {
                boolean partial = pages.getRowCount() < rowGroup.getRowCount();
                current = partial ? partialRows : rows;
                groupStart = groupStarts[index];
                returnedInGroup = 0;
                rowIndexes = partial ? rowIndexesOf(pages, path, where) : null;
                if (current == columnar) {
                    columnar.startRowGroup(pages, deleted, groupStart);
                } else {
                    current.startRowGroup(pages);
                }
            } catch (IOException | RuntimeException e) {
                throw ParquetReadErrors.notParquet(path, where, e);
            }
            return true;
        }
        return false;
    }

    private static PrimitiveIterator.OfLong rowIndexesOf(
            PageReadStore pages, Path path, String where) throws IOException {
        return pages.getRowIndexes()
                .orElseThrow(
                        () ->
                                new IOException(
                                        "Cannot read "
                                                + where
                                                + " of "
                                                + path
                                                + ": Parquet filtered its pages without giving"
                                                + " the rows' indexes"));
    }

    private boolean canSkip(BlockMetaData rowGroup) {
        if (rowGroup.getRowCount() == 0) {
            return true;
        }
        if (filter == null) {
            return false;
        }
        try {
            return StatisticsFilter.canDrop(filter, rowGroup.getColumns());
        } catch (RuntimeException e) {
            return false; // statistics Parquet cannot compare: read the row group
        }
    }

    public long rowGroupsTotal() {
        return rowGroups.size();
    }

    /** Row groups skipped so far because the filter cannot match them (or they are empty). */
    public long rowGroupsSkipped() {
        return skipped;
    }

    /** Bytes read from the file so far, footer included. */
    public long bytesRead() {
        return file.bytesRead();
    }

    @Override
    public void close() throws IOException {
        closePages();
        reader.close();
    }

    private void closePages() {
        rowIndexes = null;
        if (pages != null) {
            pages.close();
            pages = null;
        }
    }
}
