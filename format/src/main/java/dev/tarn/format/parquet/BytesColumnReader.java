package dev.tarn.format.parquet;

import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.columnar.vector.Dictionary;
import org.apache.flink.table.data.columnar.vector.heap.HeapBytesVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapIntVector;
import org.apache.parquet.io.api.Binary;

import java.nio.ByteBuffer;

/**
 * Reads a string, binary or fixed-length decimal column into a {@link HeapBytesVector}. While a
 * batch holds only dictionary-encoded values the vector stores dictionary ids and returns the
 * row group's decoded entries without copying them; when a plain value arrives (Parquet falls back
 * from a dictionary that grew too large) the batch's earlier ids are written out as bytes first.
 */
final class BytesColumnReader extends VectorColumnReader {

    private final HeapBytesVector vector;
    private byte[][] entries;
    private Entries dictionary;
    private HeapIntVector ids;
    private boolean idMode;

    BytesColumnReader(HeapBytesVector vector) {
        super(vector);
        this.vector = vector;
    }

    @Override
    public boolean hasDictionarySupport() {
        return true;
    }

    @Override
    void onRowGroup() {
        entries = null;
        dictionary = null;
    }

    @Override
    public void setDictionary(org.apache.parquet.column.Dictionary dictionary) {
        entries = new byte[dictionary.getMaxId() + 1][];
        for (int id = 0; id < entries.length; id++) {
            entries[id] = dictionary.decodeToBinary(id).getBytes();
        }
        this.dictionary = new Entries(entries);
    }

    @Override
    void onBatch(int rows) {
        idMode = entries != null;
        if (idMode) {
            ids = vector.reserveDictionaryIds(rows);
            vector.setDictionary(dictionary);
        } else {
            vector.setDictionary(null);
        }
    }

    @Override
    public void addValueFromDictionary(int dictionaryId) {
        if (idMode) {
            ids.vector[row] = dictionaryId;
        } else {
            byte[] bytes = entries[dictionaryId];
            vector.appendBytes(row, bytes, 0, bytes.length);
        }
    }

    @Override
    public void addBinary(Binary value) {
        if (idMode) {
            writeOutIds();
        }
        ByteBuffer bytes = value.toByteBuffer();
        if (bytes.hasArray()) {
            vector.appendBytes(
                    row, bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
        } else {
            byte[] copy = value.getBytes();
            vector.appendBytes(row, copy, 0, copy.length);
        }
    }

    private void writeOutIds() {
        for (int i = 0; i < row; i++) {
            if (!vector.isNullAt(i)) {
                byte[] bytes = entries[ids.vector[i]];
                vector.appendBytes(i, bytes, 0, bytes.length);
            }
        }
        idMode = false;
        vector.setDictionary(null);
    }

    /** A row group's decoded dictionary, as Flink's vectors look values up. */
    private record Entries(byte[][] values) implements Dictionary {
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
