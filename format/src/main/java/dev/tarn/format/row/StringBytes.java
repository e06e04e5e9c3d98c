package dev.tarn.format.row;

/**
 * A row whose string fields can be copied as bytes without a {@link
 * org.apache.flink.table.data.StringData} made for each: a row of a decoded Parquet batch, whose
 * strings are views of page arrays. Writers of binary rows that copy the bytes anyway ask this
 * first, saving an object per string on the paths that copy every row (a lookup's bulk load).
 */
public interface StringBytes {

    /** The length in bytes of the string at {@code pos} (not null). */
    int stringLength(int pos);

    /** Copies the string at {@code pos} (not null) to {@code target} from {@code offset}. */
    void copyString(int pos, byte[] target, int offset);
}
