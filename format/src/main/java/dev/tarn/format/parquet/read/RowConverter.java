package dev.tarn.format.parquet.read;

import java.util.function.Consumer;
import javax.annotation.Nullable;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;

/**
 * Converts a Parquet group into a {@link GenericRowData}, one child converter per field in the
 * order of the requested schema. The root converter (no sink) reuses one row and clears it at each
 * record, since Parquet does not visit null fields; nested rows are fresh objects.
 */
final class RowConverter extends GroupConverter {

    private final Converter[] fields;
    @Nullable private final Consumer<Object> sink;
    private GenericRowData row;

    RowConverter(RowType type, @Nullable Consumer<Object> sink) {
        int arity = type.getFieldCount();
        this.sink = sink;
        this.fields = new Converter[arity];
        for (int i = 0; i < arity; i++) {
            int pos = i;
            fields[i] = ParquetConverters.of(type.getTypeAt(i), v -> row.setField(pos, v));
        }
        this.row = new GenericRowData(arity);
    }

    @Override
    public Converter getConverter(int fieldIndex) {
        return fields[fieldIndex];
    }

    @Override
    public void start() {
        if (sink == null) {
            for (int i = 0; i < fields.length; i++) {
                row.setField(i, null);
            }
        } else {
            row = new GenericRowData(fields.length);
        }
    }

    @Override
    public void end() {
        if (sink != null) {
            sink.accept(row);
        }
    }

    /** The row last converted; for the root, the reused row. */
    GenericRowData row() {
        return row;
    }
}
