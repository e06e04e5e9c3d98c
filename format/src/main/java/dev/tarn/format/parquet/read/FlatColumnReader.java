package dev.tarn.format.parquet.read;

import java.io.IOException;
import javax.annotation.Nullable;
import org.apache.flink.table.data.columnar.vector.writable.WritableColumnVector;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ValuesType;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.values.ValuesReader;

/**
 * Reads one flat column chunk into a column vector, a batch of rows at a time, decoding the pages
 * itself: definition levels and values come straight from each page's readers, without Parquet's
 * per-value record machinery. PLAIN values (fixed-width, byte-array, bit-packed booleans) use
 * {@link PlainValues}, dictionary ids {@link DictionaryIds}; other encodings use Parquet's own
 * value readers.
 *
 * <p>REQUIRES: the column is a top-level primitive (no repetition), so one value is one row.
 */
abstract class FlatColumnReader {

    private final ColumnDescriptor column;
    private final WritableColumnVector vector;
    private PageReader pages;
    private int valuesLeftInPage;
    @Nullable private Dictionary dictionary;
    @Nullable private DictionaryIds dictionaryIds;

    /** Value of {@link #levels} that marks a non-null value. */
    protected final int maxDefinitionLevel;

    /** Definition levels of the current page. */
    protected ValuesReader levels;

    /** Values of the current page. */
    protected ValuesReader values;

    /** Whether the current page holds dictionary ids rather than values. */
    protected boolean dictionaryEncoded;

    /** The levels of a page without nulls: each the maximum, no decoding needed. */
    private final ValuesReader allDefined;

    FlatColumnReader(ColumnDescriptor column, WritableColumnVector vector) {
        this.column = column;
        this.vector = vector;
        this.maxDefinitionLevel = column.getMaxDefinitionLevel();
        int max = maxDefinitionLevel;
        this.allDefined =
                new ValuesReader() {
                    @Override
                    public int readInteger() {
                        return max;
                    }

                    @Override
                    public void skip() {}
                };
    }

    final WritableColumnVector vector() {
        return vector;
    }

    /** Starts the column's chunk of a new row group, loading its dictionary if it has one. */
    final void startRowGroup(PageReader pages) throws IOException {
        this.pages = pages;
        this.valuesLeftInPage = 0;
        DictionaryPage page = pages.readDictionaryPage();
        this.dictionary = page == null ? null : page.getEncoding().initDictionary(column, page);
        this.dictionaryIds = dictionary == null ? null : DictionaryIds.of(column, dictionary);
        onDictionary(dictionary);
    }

    /** Fills vector rows 0 to {@code rows - 1} with the chunk's next values. */
    final void readBatch(int rows) throws IOException {
        vector.reset();
        onBatch(rows);
        int done = 0;
        while (done < rows) {
            if (valuesLeftInPage == 0) {
                readPage();
            }
            int count = Math.min(rows - done, valuesLeftInPage);
            read(done, count);
            done += count;
            valuesLeftInPage -= count;
        }
    }

    /**
     * As {@link #readBatch} for a batch of {@code rows} of which only the {@code count} rows of
     * {@code selected} (ascending) are needed: those are filled, the others skipped without
     * decoding (fixed-width values are passed over, dictionary ids not looked up, strings not
     * pointed at) and marked null, so nothing reads a stale value of theirs.
     */
    final void readSelected(int rows, int[] selected, int count) throws IOException {
        vector.reset();
        onBatch(rows);
        int done = 0;
        int next = 0;
        while (done < rows) {
            if (valuesLeftInPage == 0) {
                readPage();
            }
            int end = done + Math.min(rows - done, valuesLeftInPage);
            int at = done;
            while (next < count && selected[next] < end) {
                int first = selected[next++];
                int last = first + 1;
                while (next < count && selected[next] == last && last < end) {
                    next++;
                    last++;
                }
                skip(at, first - at);
                read(first, last - first);
                at = last;
            }
            skip(at, end - at);
            valuesLeftInPage -= end - done;
            done = end;
        }
    }

    /**
     * Passes over the page's next {@code count} values, rows {@code offset...}, marking them null.
     */
    private void skip(int offset, int count) {
        if (count == 0) {
            return;
        }
        int present = count;
        if (!allDefined()) {
            present = 0;
            for (int i = 0; i < count; i++) {
                if (levels.readInteger() == maxDefinitionLevel) {
                    present++;
                }
            }
        }
        values.skip(present);
        for (int i = offset, end = offset + count; i < end; i++) {
            vector.setNullAt(i);
        }
    }

    /** Whether the current page has no nulls: {@link #levels} need not be read. */
    final boolean allDefined() {
        return levels == allDefined;
    }

    /** Reads {@code count} values into rows {@code offset...}, marking nulls in the vector. */
    abstract void read(int offset, int count);

    /** Called with each row group's dictionary, or null if its chunk has none. */
    abstract void onDictionary(@Nullable Dictionary dictionary);

    /** Called after the vector is reset for a new batch of {@code rows}. */
    void onBatch(int rows) {}

    private void readPage() throws IOException {
        DataPage page = pages.readPage();
        if (page == null) {
            throw new IOException("Column " + column + " ends before its row group does");
        }
        valuesLeftInPage = page.getValueCount();
        if (page instanceof DataPageV1 v1) {
            ByteBufferInputStream in = v1.getBytes().toInputStream();
            boolean oneRun = v1.getDlEncoding() == Encoding.RLE && oneDefinedRun(in);
            levels = v1.getDlEncoding().getValuesReader(column, ValuesType.DEFINITION_LEVEL);
            levels.initFromPage(valuesLeftInPage, in);
            if (oneRun || withoutNulls(v1.getStatistics())) {
                // The levels are read past above; every one is the maximum.
                levels = allDefined;
            }
            startValues(v1.getValueEncoding(), in);
        } else {
            DataPageV2 v2 = (DataPageV2) page;
            levels = new HybridLevels(maxDefinitionLevel, v2.getDefinitionLevels().toInputStream());
            startValues(v2.getDataEncoding(), v2.getData().toInputStream());
        }
    }

    /**
     * True when the RLE levels at the stream's position (a v1 page's: length first) are one run of
     * the maximum level covering the page, as a writer stores a page without nulls: the page then
     * needs no level decoded, whatever its statistics say. Leaves the stream where it was.
     */
    private boolean oneDefinedRun(ByteBufferInputStream in) throws IOException {
        if (maxDefinitionLevel == 0) {
            return true;
        }
        in.mark(16);
        try {
            BytesUtils.readIntLittleEndian(in);
            int header = BytesUtils.readUnsignedVarInt(in);
            if ((header & 1) != 0 || (header >>> 1) < valuesLeftInPage) {
                return false;
            }
            int valueBytes = (BytesUtils.getWidthFromMaxInt(maxDefinitionLevel) + 7) / 8;
            int value = 0;
            for (int i = 0; i < valueBytes; i++) {
                value |= in.read() << (8 * i);
            }
            return value == maxDefinitionLevel;
        } finally {
            in.reset();
        }
    }

    /** True when the page's statistics say it holds no null. */
    private static boolean withoutNulls(@Nullable Statistics<?> statistics) {
        return statistics != null && !statistics.isEmpty() && statistics.getNumNulls() == 0;
    }

    private void startValues(Encoding encoding, ByteBufferInputStream in) throws IOException {
        dictionaryEncoded = encoding.usesDictionary();
        if (dictionaryEncoded) {
            if (dictionary == null) {
                throw new IOException(
                        "Column " + column + " has dictionary-encoded pages but no dictionary");
            }
            values = dictionaryIds;
        } else if (encoding == Encoding.PLAIN && PlainValues.supports(column)) {
            values = new PlainValues(column);
        } else {
            values = encoding.getValuesReader(column, ValuesType.VALUES);
        }
        values.initFromPage(valuesLeftInPage, in);
    }
}
