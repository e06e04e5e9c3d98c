package dev.tarn.format.parquet.read;

import dev.tarn.format.row.StringBytes;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RawValueData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.columnar.vector.BytesColumnVector.Bytes;
import org.apache.flink.table.data.columnar.vector.VectorizedColumnBatch;
import org.apache.flink.types.RowKind;
import org.apache.flink.types.variant.Variant;

/**
 * One row of a decoded batch of flat columns, moved along the batch by {@link #setRow}. Like
 * Flink's {@code ColumnarRowData}, except that strings come from their column reader, which hands
 * out dictionary strings without allocating. Values read from it outlive the batch.
 */
final class BatchRow implements RowData, StringBytes {

    private final VectorizedColumnBatch batch;
    private final BytesColumnReader[] strings;
    private RowKind kind = RowKind.INSERT;
    private int row;

    /**
     * @param strings per column, its reader if the column is CHAR or VARCHAR, else null
     */
    BatchRow(VectorizedColumnBatch batch, BytesColumnReader[] strings) {
        this.batch = batch;
        this.strings = strings;
    }

    void setRow(int row) {
        this.row = row;
    }

    @Override
    public int getArity() {
        return batch.getArity();
    }

    @Override
    public RowKind getRowKind() {
        return kind;
    }

    @Override
    public void setRowKind(RowKind kind) {
        this.kind = kind;
    }

    @Override
    public boolean isNullAt(int pos) {
        return batch.isNullAt(row, pos);
    }

    @Override
    public boolean getBoolean(int pos) {
        return batch.getBoolean(row, pos);
    }

    @Override
    public byte getByte(int pos) {
        return batch.getByte(row, pos);
    }

    @Override
    public short getShort(int pos) {
        return batch.getShort(row, pos);
    }

    @Override
    public int getInt(int pos) {
        return batch.getInt(row, pos);
    }

    @Override
    public long getLong(int pos) {
        return batch.getLong(row, pos);
    }

    @Override
    public float getFloat(int pos) {
        return batch.getFloat(row, pos);
    }

    @Override
    public double getDouble(int pos) {
        return batch.getDouble(row, pos);
    }

    @Override
    public StringData getString(int pos) {
        return strings[pos].stringAt(row);
    }

    @Override
    public int stringLength(int pos) {
        return strings[pos].lengthAt(row);
    }

    @Override
    public void copyString(int pos, byte[] target, int offset) {
        strings[pos].copyAt(row, target, offset);
    }

    @Override
    public DecimalData getDecimal(int pos, int precision, int scale) {
        return batch.getDecimal(row, pos, precision, scale);
    }

    @Override
    public TimestampData getTimestamp(int pos, int precision) {
        return batch.getTimestamp(row, pos, precision);
    }

    @Override
    public byte[] getBinary(int pos) {
        Bytes bytes = batch.getByteArray(row, pos);
        if (bytes.offset == 0 && bytes.len == bytes.data.length) {
            return bytes.data;
        }
        return bytes.getBytes();
    }

    @Override
    public <T> RawValueData<T> getRawValue(int pos) {
        throw flatOnly("RAW");
    }

    @Override
    public ArrayData getArray(int pos) {
        throw flatOnly("ARRAY");
    }

    @Override
    public MapData getMap(int pos) {
        throw flatOnly("MAP");
    }

    @Override
    public RowData getRow(int pos, int numFields) {
        throw flatOnly("ROW");
    }

    @Override
    public Variant getVariant(int pos) {
        throw flatOnly("VARIANT");
    }

    private static UnsupportedOperationException flatOnly(String type) {
        return new UnsupportedOperationException(
                "A batch row of flat columns holds no " + type + " values");
    }

    @Override
    public boolean equals(Object o) {
        throw new UnsupportedOperationException(
                "A batch row is a moving view; compare its fields one by one");
    }

    @Override
    public int hashCode() {
        throw new UnsupportedOperationException(
                "A batch row is a moving view; hash its fields one by one");
    }
}
