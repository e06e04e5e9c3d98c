package dev.tarn.format.parquet;

import org.apache.flink.table.data.columnar.vector.writable.WritableColumnVector;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReadStore;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.io.api.PrimitiveConverter;

/**
 * Reads one flat column of a row group into a column vector, a batch of rows at a time. It is
 * also the Parquet converter of its column: Parquet's column reader decodes each value (through
 * the dictionary unless {@link #hasDictionarySupport()}) and hands it to the {@code add*} method
 * a subclass overrides, which stores it at {@link #row}.
 *
 * <p>REQUIRES: the column is a top-level primitive (maximum repetition level 0).
 */
abstract class VectorColumnReader extends PrimitiveConverter {

    private final WritableColumnVector vector;
    private ColumnReader reader;
    private int maxDefinitionLevel;

    /** The batch row the value being converted belongs to. */
    protected int row;

    VectorColumnReader(WritableColumnVector vector) {
        this.vector = vector;
    }

    final WritableColumnVector vector() {
        return vector;
    }

    /** Starts the column's chunk in a new row group; Parquet may call setDictionary meanwhile. */
    final void startRowGroup(ColumnReadStore store, ColumnDescriptor column) {
        onRowGroup();
        reader = store.getColumnReader(column);
        maxDefinitionLevel = column.getMaxDefinitionLevel();
    }

    /** Fills rows 0 to {@code rows - 1} of the vector with the column's next values. */
    final void readBatch(int rows) {
        vector.reset();
        onBatch(rows);
        ColumnReader r = reader;
        int defined = maxDefinitionLevel;
        for (int i = 0; i < rows; i++) {
            if (r.getCurrentDefinitionLevel() == defined) {
                row = i;
                r.writeCurrentValueToConverter();
            } else {
                vector.setNullAt(i);
            }
            r.consume();
        }
    }

    /** Called before each row group's column reader is created. */
    void onRowGroup() {}

    /** Called after the vector is reset for a batch of {@code rows}. */
    void onBatch(int rows) {}
}
