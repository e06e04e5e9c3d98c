package dev.tarn.format.parquet.write;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.parquet.io.api.RecordConsumer;

/**
 * Writes one non-null value of a column to Parquet, read in place from a row or an array with the
 * typed accessor of its type. One writer per column (and per nested element type) is built when the
 * file opens, so writing a row neither switches on types nor allocates per value.
 *
 * <p>REQUIRES: the caller has checked the value is not null and has opened the field.
 */
interface FieldWriter {

    void write(RowData row, int pos);

    void write(ArrayData array, int pos);

    /** The writer of values of {@code type}, which appear as column {@code name}. */
    static FieldWriter of(String name, LogicalType type, RecordConsumer consumer) {
        return switch (type.getTypeRoot()) {
            case ARRAY, MAP, MULTISET, ROW -> NestedWriters.of(name, type, consumer);
            default -> AtomicWriters.of(type, consumer);
        };
    }
}
