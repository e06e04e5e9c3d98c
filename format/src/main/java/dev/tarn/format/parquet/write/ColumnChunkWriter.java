package dev.tarn.format.parquet.write;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.SizeStatistics;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.statistics.geospatial.GeospatialStatistics;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Encodes the values of one top-level OPTIONAL primitive column into v1 data pages, handed to
 * Parquet's {@link PageWriter} (which compresses them and builds the page indexes). It replaces
 * Parquet's column writer for {@link FlatRowWriter}: the same page format and encodings (RLE
 * definition levels; PLAIN values, or PLAIN_DICTIONARY ids while the dictionary stays under its
 * limit), with per-value work cut to a store into an array and a min/max update.
 *
 * <p>A page ends at {@code pageSize} bytes of values or {@code pageValueLimit} values, as Parquet
 * cuts them. A subclass takes values through the {@link RecordConsumer} calls of its type, appends
 * PLAIN values to {@link #plain}, calls {@link #valueAdded(int)} after each, and encodes the page
 * when asked. {@link #plain} keeps room in front for the page's definition levels, so that a PLAIN
 * page goes to the compressor as one array, without a copy.
 *
 * <p>Invariant: {@code nullPositions[0..nullCount)} are the ascending positions, within the page's
 * {@code valueCount} values, of its nulls.
 */
abstract class ColumnChunkWriter extends RecordConsumer {

    /** Bytes kept in front of {@link #plain}: the levels of a page without nulls take 6 to 10. */
    private static final int LEVELS_ROOM = 16;

    /** The open page's PLAIN values, from {@link #LEVELS_ROOM} on. */
    final PageBytes plain = new PageBytes();

    final ColumnDescriptor column;
    final PrimitiveType type;
    final int pageSize;
    private final int pageValueLimit;
    private final SizeStatistics noSizeStatistics;
    private final GeospatialStatistics noGeospatialStatistics =
            GeospatialStatistics.noopBuilder().build();
    private final PageBytes levels = new PageBytes();

    /** Definition levels of a page with some nulls, before encoding. */
    private int[] levelValues = new int[0];

    private PageWriter pages;
    private int valueCount;
    private int nullCount;
    private int[] nullPositions = new int[16];

    /** Whether a page of the open chunk was dictionary-encoded, so the chunk needs the page. */
    private boolean chunkUsesDictionary;

    ColumnChunkWriter(ColumnDescriptor column, int pageSize, int pageValueLimit) {
        if (column.getMaxDefinitionLevel() != 1 || column.getMaxRepetitionLevel() != 0) {
            throw new IllegalArgumentException(
                    "Column " + column + " is not a top-level OPTIONAL primitive column");
        }
        this.column = column;
        this.type = column.getPrimitiveType();
        this.pageSize = pageSize;
        this.pageValueLimit = pageValueLimit;
        this.noSizeStatistics = SizeStatistics.noopBuilder(type, 0, 1).build();
        plain.resetWithRoom(LEVELS_ROOM);
    }

    /** Bytes of PLAIN values in the open page. */
    final int plainSize() {
        return plain.size() - LEVELS_ROOM;
    }

    /** Starts a column chunk, written to {@code pages}. */
    final void startChunk(PageWriter pages) {
        this.pages = pages;
        this.chunkUsesDictionary = false;
        startChunk();
    }

    /** Writes the open page and, if any page used it, the dictionary page. */
    final void finishChunk() throws IOException {
        if (valueCount > 0) {
            writePage();
        }
        if (chunkUsesDictionary) {
            pages.writeDictionaryPage(dictionaryPage());
        }
        endChunk();
        pages = null;
    }

    /** Bytes of the chunk so far: pages written (compressed) and the open page. */
    final long bufferedSize() {
        return pages.getMemSize() + pageBytes();
    }

    final void writeNull() {
        if (nullCount == nullPositions.length) {
            nullPositions = Arrays.copyOf(nullPositions, nullCount * 2);
        }
        nullPositions[nullCount++] = valueCount;
        valueAdded(pageBytes());
    }

    /** Counts a value (null or not) and ends the page if it is full. */
    final void valueAdded(int pageBytes) {
        if (++valueCount >= pageValueLimit || pageBytes >= pageSize) {
            writePage();
        }
    }

    /** Whether the open chunk already has dictionary-encoded pages. */
    final boolean chunkUsesDictionary() {
        return chunkUsesDictionary;
    }

    // ---- what a subclass encodes ------------------------------------------------------------

    abstract void startChunk();

    /** Bytes the open page's values will take, as Parquet estimates them. */
    abstract int pageBytes();

    /**
     * Encodes the open page's values, or returns null if they are the PLAIN values in {@link
     * #plain}; may fall back from the dictionary to PLAIN.
     */
    abstract BytesInput pageValues() throws IOException;

    /** The encoding of the bytes {@link #pageValues()} returned. */
    abstract Encoding pageEncoding();

    /** Min and max of the open page's non-null values, if it has any. */
    abstract void addMinMax(Statistics<?> statistics);

    /** Forgets the open page's values other than {@link #plain} (after it is written). */
    abstract void resetPage();

    abstract DictionaryPage dictionaryPage();

    abstract void endChunk();

    // ---- pages --------------------------------------------------------------------------------

    private void writePage() {
        try {
            Statistics<?> statistics = Statistics.createStats(type);
            if (nullCount < valueCount) {
                addMinMax(statistics);
            }
            statistics.setNumNulls(nullCount);
            BytesInput values = pageValues();
            Encoding encoding = pageEncoding();
            pages.writePage(
                    values == null ? plainPage() : BytesInput.concat(definitionLevels(), values),
                    valueCount,
                    valueCount,
                    statistics,
                    noSizeStatistics,
                    noGeospatialStatistics,
                    Encoding.BIT_PACKED,
                    Encoding.RLE,
                    encoding);
            chunkUsesDictionary |= encoding.usesDictionary();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write a page of column " + column, e);
        }
        valueCount = 0;
        nullCount = 0;
        plain.resetWithRoom(LEVELS_ROOM);
        resetPage();
    }

    /** The levels, then the PLAIN values: in one array when the levels fit the room left. */
    private BytesInput plainPage() throws IOException {
        BytesInput levelBytes = definitionLevels();
        int length = levels.size();
        if (length > LEVELS_ROOM) {
            return BytesInput.concat(
                    levelBytes, BytesInput.from(plain.array(), LEVELS_ROOM, plainSize()));
        }
        int start = LEVELS_ROOM - length;
        System.arraycopy(levels.array(), 0, plain.array(), start, length);
        return BytesInput.from(plain.array(), start, plain.size() - start);
    }

    /**
     * The page's definition levels, RLE-encoded with their 4-byte length in front: one run when the
     * page has no nulls (or only nulls), else Parquet's hybrid encoder.
     */
    private BytesInput definitionLevels() throws IOException {
        levels.reset();
        levels.putInt(0);
        if (nullCount == 0 || nullCount == valueCount) {
            levels.putUnsignedVarInt(valueCount << 1);
            levels.putByte(nullCount == 0 ? 1 : 0);
        } else {
            if (levelValues.length < valueCount) {
                levelValues = new int[valueCount];
            }
            Arrays.fill(levelValues, 0, valueCount, 1);
            for (int i = 0; i < nullCount; i++) {
                levelValues[nullPositions[i]] = 0;
            }
            byte[] encoded = hybrid(1, levelValues, valueCount);
            levels.put(encoded, 0, encoded.length);
        }
        levels.setInt(0, levels.size() - Integer.BYTES);
        return levels.view();
    }

    /**
     * PLAIN_DICTIONARY page values: the bit width of the largest id in one byte, then the ids in
     * Parquet's RLE/bit-packed hybrid.
     */
    final BytesInput encodeIds(int[] ids, int count, int dictionarySize) throws IOException {
        int bitWidth = BytesUtils.getWidthFromMaxInt(dictionarySize - 1);
        return BytesInput.concat(
                BytesInput.from(new byte[] {(byte) bitWidth}),
                BytesInput.from(hybrid(bitWidth, ids, count)));
    }

    /** {@code values[0..count)} in Parquet's RLE/bit-packed hybrid encoding. */
    private byte[] hybrid(int bitWidth, int[] values, int count) throws IOException {
        RunLengthBitPackingHybridEncoder encoder =
                new RunLengthBitPackingHybridEncoder(
                        bitWidth, 64, pageSize, HeapByteBufferAllocator.getInstance());
        try {
            for (int i = 0; i < count; i++) {
                encoder.writeInt(values[i]);
            }
            return encoder.toBytes().toByteArray();
        } finally {
            encoder.close();
        }
    }

    // ---- RecordConsumer calls a flat column never gets -----------------------------------------

    @Override
    public void startMessage() {
        throw notAColumnCall("startMessage");
    }

    @Override
    public void endMessage() {
        throw notAColumnCall("endMessage");
    }

    @Override
    public void startField(String field, int index) {
        throw notAColumnCall("startField");
    }

    @Override
    public void endField(String field, int index) {
        throw notAColumnCall("endField");
    }

    @Override
    public void startGroup() {
        throw notAColumnCall("startGroup");
    }

    @Override
    public void endGroup() {
        throw notAColumnCall("endGroup");
    }

    @Override
    public void addInteger(int value) {
        throw wrongType("an INT32");
    }

    @Override
    public void addLong(long value) {
        throw wrongType("an INT64");
    }

    @Override
    public void addBoolean(boolean value) {
        throw wrongType("a BOOLEAN");
    }

    @Override
    public void addBinary(org.apache.parquet.io.api.Binary value) {
        throw wrongType("a binary");
    }

    @Override
    public void addFloat(float value) {
        throw wrongType("a FLOAT");
    }

    @Override
    public void addDouble(double value) {
        throw wrongType("a DOUBLE");
    }

    private UnsupportedOperationException notAColumnCall(String call) {
        return new UnsupportedOperationException(
                "Cannot call "
                        + call
                        + " on the writer of column "
                        + column
                        + ": it has no structure");
    }

    private IllegalArgumentException wrongType(String value) {
        return new IllegalArgumentException(
                "Cannot write " + value + " value to column " + column + " of type " + type);
    }
}
