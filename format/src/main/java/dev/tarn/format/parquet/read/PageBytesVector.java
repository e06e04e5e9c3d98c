package dev.tarn.format.parquet.read;

import java.util.Arrays;
import org.apache.flink.table.data.columnar.vector.heap.HeapBytesVector;

/**
 * A bytes vector whose values are views of the arrays they were decoded in: a plain page's
 * decompressed bytes, a dictionary's entries, or (where neither can be pointed at) the vector's own
 * buffer. A batch of strings then costs an offset and a length per value, not a copy of its bytes.
 * The arrays pointed at are never written after decoding (each page is decompressed into a fresh
 * array and heap buffers are never recycled), so a value stays valid as long as it is referenced.
 */
class PageBytesVector extends HeapBytesVector {

    private final byte[][] arrays;

    PageBytesVector(int capacity) {
        super(capacity);
        this.arrays = new byte[capacity][];
    }

    /**
     * Makes the value at {@code row} the {@code length} bytes of {@code array} from {@code start}.
     */
    void point(int row, byte[] array, int start, int length) {
        arrays[row] = array;
        this.start[row] = start;
        this.length[row] = length;
    }

    /** The array holding the value at {@code row} (not null), from {@code start[row]}. */
    byte[] array(int row) {
        return arrays[row];
    }

    @Override
    public void appendBytes(int row, byte[] source, int start, int length) {
        super.appendBytes(row, source, start, length);
        // The buffer may be replaced by a larger one later; the values in this one stay.
        arrays[row] = buffer;
    }

    @Override
    public void fill(byte[] value) {
        super.fill(value);
        Arrays.fill(arrays, buffer);
    }

    @Override
    public Bytes getBytes(int i) {
        if (dictionary == null) {
            return new Bytes(arrays[i], start[i], length[i]);
        }
        return super.getBytes(i);
    }
}
