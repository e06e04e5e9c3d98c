package dev.tarn.format.parquet.write;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.io.api.RecordConsumer;

/**
 * Writes the fields of a row (the top-level record or a nested ROW), skipping null fields as
 * Parquet encodes them. Holds one {@link FieldWriter} per field, built once.
 */
final class RowFieldsWriter {

    private final String[] names;
    private final FieldWriter[] writers;
    private final RecordConsumer consumer;

    RowFieldsWriter(RowType type, RecordConsumer consumer) {
        int arity = type.getFieldCount();
        this.names = type.getFieldNames().toArray(new String[0]);
        this.writers = new FieldWriter[arity];
        for (int i = 0; i < arity; i++) {
            writers[i] = FieldWriter.of(names[i], type.getTypeAt(i), consumer);
        }
        this.consumer = consumer;
    }

    int arity() {
        return writers.length;
    }

    /** Writes the fields of {@code row} into the currently open message or group. */
    void writeFields(RowData row) {
        for (int i = 0; i < writers.length; i++) {
            if (!row.isNullAt(i)) {
                consumer.startField(names[i], i);
                writers[i].write(row, i);
                consumer.endField(names[i], i);
            }
        }
    }

    /** Writes {@code row} as a nested group. */
    void writeGroup(RowData row) {
        consumer.startGroup();
        writeFields(row);
        consumer.endGroup();
    }
}
