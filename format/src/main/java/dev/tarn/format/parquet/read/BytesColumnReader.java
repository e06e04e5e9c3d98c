package dev.tarn.format.parquet.read;

import java.nio.ByteBuffer;
import javax.annotation.Nullable;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.data.columnar.vector.heap.HeapIntVector;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;

/**
 * Reads a string, binary or fixed-length decimal column into a {@link PageBytesVector}. While a
 * batch holds only dictionary-encoded values, the vector stores dictionary ids and {@link
 * #stringAt} returns the row group's decoded strings themselves, neither copied nor re-created per
 * access. When a plain page follows (Parquet abandons a dictionary that grew too large), the
 * batch's earlier ids become views of their dictionary entries and the batch continues with values.
 * A plain value is a view of its page's bytes, not a copy; only a page whose bytes are not in a
 * heap array is copied into the vector's buffer, and a batch that did so gets a fresh buffer for
 * the next one, so values read from earlier rows stay valid.
 */
final class BytesColumnReader extends FlatColumnReader {

    private final PageBytesVector vector;
    private byte[][] entries;
    private StringData[] strings;
    private Entries dictionary;
    private HeapIntVector ids;
    private boolean idMode;
    private boolean bufferUsed;

    /**
     * The array of the last plain value {@link #stringAt} returned and a segment over it: a string
     * is a view of a segment, and wrapping the array anew for every value would allocate a segment
     * (and its state) per value. Arrays pointed at are never written again, so views stay valid.
     */
    @Nullable private byte[] segmentArray;

    @Nullable private MemorySegment[] segments;

    BytesColumnReader(ColumnDescriptor column, PageBytesVector vector) {
        super(column, vector);
        this.vector = vector;
    }

    @Override
    void onDictionary(@Nullable Dictionary parquetDictionary) {
        if (parquetDictionary == null) {
            entries = null;
            strings = null;
            dictionary = null;
            return;
        }
        entries = new byte[parquetDictionary.getMaxId() + 1][];
        strings = new StringData[entries.length];
        for (int id = 0; id < entries.length; id++) {
            entries[id] = parquetDictionary.decodeToBinary(id).getBytes();
            strings[id] = StringData.fromBytes(entries[id]);
        }
        dictionary = new Entries(entries);
    }

    @Override
    void onBatch(int rows) {
        if (bufferUsed) {
            // Rows of the last batch may still point into the buffer: never overwrite it.
            vector.buffer = new byte[vector.buffer.length];
            bufferUsed = false;
        }
        idMode = entries != null;
        if (idMode) {
            ids = vector.reserveDictionaryIds(rows);
            vector.setDictionary(dictionary);
        } else {
            vector.setDictionary(null);
        }
    }

    /** The string at {@code row} of the current batch. */
    StringData stringAt(int row) {
        if (idMode) {
            return strings[ids.vector[row]];
        }
        byte[] array = vector.array(row);
        if (array != segmentArray) {
            // Consecutive values share their page's array: one segment serves them all.
            segmentArray = array;
            segments = new MemorySegment[] {MemorySegmentFactory.wrap(array)};
        }
        return BinaryStringData.fromAddress(segments, vector.start[row], vector.length[row]);
    }

    /** The length in bytes of the value at {@code row} of the current batch (not null). */
    int lengthAt(int row) {
        return idMode ? entries[ids.vector[row]].length : vector.length[row];
    }

    /** Copies the value at {@code row} of the current batch (not null) to {@code target}. */
    void copyAt(int row, byte[] target, int offset) {
        if (idMode) {
            byte[] entry = entries[ids.vector[row]];
            System.arraycopy(entry, 0, target, offset, entry.length);
        } else {
            System.arraycopy(
                    vector.array(row), vector.start[row], target, offset, vector.length[row]);
        }
    }

    @Override
    void read(int offset, int count) {
        if (idMode && !dictionaryEncoded) {
            writeOutIds(offset);
        }
        int end = offset + count;
        if (dictionaryEncoded && idMode && allDefined()) {
            ((DictionaryIds) values).readIds(ids.vector, offset, count);
        } else if (dictionaryEncoded && idMode) {
            int[] out = ids.vector;
            for (int i = offset; i < end; i++) {
                if (levels.readInteger() == maxDefinitionLevel) {
                    out[i] = values.readValueDictionaryId();
                } else {
                    vector.setNullAt(i);
                }
            }
        } else if (dictionaryEncoded) {
            for (int i = offset; i < end; i++) {
                if (levels.readInteger() == maxDefinitionLevel) {
                    byte[] bytes = entries[values.readValueDictionaryId()];
                    vector.point(i, bytes, 0, bytes.length);
                } else {
                    vector.setNullAt(i);
                }
            }
        } else {
            readPlain(offset, end);
        }
    }

    private void readPlain(int offset, int end) {
        PlainValues plain = values instanceof PlainValues p && p.buffer().hasArray() ? p : null;
        if (plain != null && allDefined()) {
            readPlainDefined(plain, offset, end);
            return;
        }
        for (int i = offset; i < end; i++) {
            if (levels.readInteger() != maxDefinitionLevel) {
                vector.setNullAt(i);
            } else if (plain != null) {
                ByteBuffer buffer = plain.buffer();
                int length = plain.nextLength();
                int position = buffer.position();
                vector.point(i, buffer.array(), buffer.arrayOffset() + position, length);
                buffer.position(position + length);
            } else {
                byte[] bytes = values.readBytes().getBytes();
                vector.appendBytes(i, bytes, 0, bytes.length);
                bufferUsed = true;
            }
        }
    }

    /**
     * The loop of {@link #readPlain} for a page without nulls whose bytes are in a heap array: the
     * values' lengths and positions read straight from the array, every value pointing at it.
     */
    private void readPlainDefined(PlainValues plain, int offset, int end) {
        ByteBuffer buffer = plain.buffer();
        byte[] array = buffer.array();
        int base = buffer.arrayOffset();
        int position = base + buffer.position();
        int limit = base + buffer.limit();
        int source = vector.source(array);
        int fixed = plain.fixedLength();
        for (int i = offset; i < end; i++) {
            int length;
            if (fixed < 0) {
                length = PlainValues.intAt(array, position);
                position += Integer.BYTES;
            } else {
                length = fixed;
            }
            if (length < 0 || length > limit - position) {
                throw PlainValues.pastEnd(length, limit - position);
            }
            vector.point(i, source, position, length);
            position += length;
        }
        buffer.position(position - base);
    }

    /** Turns the ids of rows before {@code row} into values; the batch continues with values. */
    private void writeOutIds(int row) {
        for (int i = 0; i < row; i++) {
            if (!vector.isNullAt(i)) {
                byte[] bytes = entries[ids.vector[i]];
                vector.point(i, bytes, 0, bytes.length);
            }
        }
        idMode = false;
        vector.setDictionary(null);
    }

    /** A row group's decoded dictionary, as Flink's vectors look values up. */
    private record Entries(byte[][] values)
            implements org.apache.flink.table.data.columnar.vector.Dictionary {
        @Override
        public byte[] decodeToBinary(int id) {
            return values[id];
        }

        @Override
        public int decodeToInt(int id) {
            throw notNumeric();
        }

        @Override
        public long decodeToLong(int id) {
            throw notNumeric();
        }

        @Override
        public float decodeToFloat(int id) {
            throw notNumeric();
        }

        @Override
        public double decodeToDouble(int id) {
            throw notNumeric();
        }

        @Override
        public TimestampData decodeToTimestamp(int id) {
            throw notNumeric();
        }

        private static UnsupportedOperationException notNumeric() {
            return new UnsupportedOperationException("A bytes dictionary only decodes to bytes");
        }
    }
}
