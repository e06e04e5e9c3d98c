package dev.tarn.format.parquet.read;

/**
 * A page's values read many at a time: the next {@code count} values into rows {@code offset} to
 * {@code offset + count - 1} of a vector's array, in one loop rather than a call per value. For
 * pages without nulls, where one value is one row.
 */
interface BulkValues {

    void readInts(int[] out, int offset, int count);

    void readLongs(long[] out, int offset, int count);

    void readFloats(float[] out, int offset, int count);

    void readDoubles(double[] out, int offset, int count);
}
