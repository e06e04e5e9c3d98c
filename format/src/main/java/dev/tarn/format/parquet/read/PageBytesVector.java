package dev.tarn.format.parquet.read;

import java.util.Arrays;
import org.apache.flink.table.data.columnar.vector.heap.HeapBytesVector;

/**
 * A bytes vector whose values are views of the arrays they were decoded in: a plain page's
 * decompressed bytes, a dictionary's entries, or (where neither can be pointed at) the vector's own
 * buffer. A batch of strings then costs an offset and a length per value, not a copy of its bytes.
 * The arrays pointed at are never written after decoding (each page is decompressed into a fresh
 * array and heap buffers are never recycled), so a value stays valid as long as it is referenced.
 *
 * <p>A row names its array by an index into the batch's {@link #sources}, not by a reference of its
 * own: the values of a batch come from a page or two, and storing a reference to a freshly
 * decompressed page per value would cost the garbage collector's write barrier (a memory fence when
 * the vector is old and the page young) on every value of a scan.
 */
class PageBytesVector extends HeapBytesVector {

    /** Per row, the index in {@link #sources} of the array holding its value. */
    private final int[] sourceOf;

    /** The arrays the batch's values are in; each row adds at most one. */
    private final byte[][] sources;

    private int sourceCount;

    PageBytesVector(int capacity) {
        super(capacity);
        this.sourceOf = new int[capacity];
        this.sources = new byte[capacity][];
    }

    @Override
    public void reset() {
        super.reset();
        sourceCount = 0;
    }

    /**
     * The index by which rows of the current batch name {@code array}: the last one added if it is
     * the same array, else a new one. Valid until {@link #reset()}.
     */
    int source(byte[] array) {
        if (sourceCount > 0 && sources[sourceCount - 1] == array) {
            return sourceCount - 1;
        }
        sources[sourceCount] = array;
        return sourceCount++;
    }

    /**
     * Makes the value at {@code row} the {@code length} bytes from {@code start} of the array that
     * {@link #source} numbered {@code source}.
     */
    void point(int row, int source, int start, int length) {
        sourceOf[row] = source;
        this.start[row] = start;
        this.length[row] = length;
    }

    /**
     * Makes the value at {@code row} the {@code length} bytes of {@code array} from {@code start}.
     */
    void point(int row, byte[] array, int start, int length) {
        point(row, source(array), start, length);
    }

    /** The array holding the value at {@code row} (not null), from {@code start[row]}. */
    byte[] array(int row) {
        return sources[sourceOf[row]];
    }

    @Override
    public void appendBytes(int row, byte[] source, int start, int length) {
        super.appendBytes(row, source, start, length);
        // The buffer may be replaced by a larger one later; the values in this one stay.
        sourceOf[row] = source(buffer);
    }

    @Override
    public void fill(byte[] value) {
        super.fill(value);
        Arrays.fill(sourceOf, source(buffer));
    }

    @Override
    public Bytes getBytes(int i) {
        if (dictionary == null) {
            return new Bytes(array(i), start[i], length[i]);
        }
        return super.getBytes(i);
    }
}
