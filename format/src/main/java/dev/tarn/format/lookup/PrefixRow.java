package dev.tarn.format.lookup;

import dev.tarn.format.row.StringBytes;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RawValueData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.types.RowKind;
import org.apache.flink.types.variant.Variant;

/**
 * The first fields of a row, as a row of its own: what a bucket stores of each row it reads when
 * the read row carries more fields than the stored ones. Unlike Flink's {@code ProjectedRowData},
 * it passes on the read row's {@link StringBytes}, so a bulk load copies each string's bytes
 * without a string object made for each (the largest cost of loading a table with string columns).
 */
final class PrefixRow implements RowData, StringBytes {

    private final int arity;
    private RowData row;

    PrefixRow(int arity) {
        this.arity = arity;
    }

    PrefixRow replaceRow(RowData row) {
        this.row = row;
        return this;
    }

    @Override
    public int stringLength(int pos) {
        if (row instanceof StringBytes direct) {
            return direct.stringLength(pos);
        }
        StringData string = row.getString(pos);
        return string instanceof BinaryStringData binary
                ? binary.getSizeInBytes()
                : string.toBytes().length;
    }

    @Override
    public void copyString(int pos, byte[] target, int offset) {
        if (row instanceof StringBytes direct) {
            direct.copyString(pos, target, offset);
            return;
        }
        byte[] bytes = row.getString(pos).toBytes();
        System.arraycopy(bytes, 0, target, offset, bytes.length);
    }

    @Override
    public int getArity() {
        return arity;
    }

    @Override
    public RowKind getRowKind() {
        return row.getRowKind();
    }

    @Override
    public void setRowKind(RowKind kind) {
        row.setRowKind(kind);
    }

    @Override
    public boolean isNullAt(int pos) {
        return row.isNullAt(pos);
    }

    @Override
    public boolean getBoolean(int pos) {
        return row.getBoolean(pos);
    }

    @Override
    public byte getByte(int pos) {
        return row.getByte(pos);
    }

    @Override
    public short getShort(int pos) {
        return row.getShort(pos);
    }

    @Override
    public int getInt(int pos) {
        return row.getInt(pos);
    }

    @Override
    public long getLong(int pos) {
        return row.getLong(pos);
    }

    @Override
    public float getFloat(int pos) {
        return row.getFloat(pos);
    }

    @Override
    public double getDouble(int pos) {
        return row.getDouble(pos);
    }

    @Override
    public StringData getString(int pos) {
        return row.getString(pos);
    }

    @Override
    public DecimalData getDecimal(int pos, int precision, int scale) {
        return row.getDecimal(pos, precision, scale);
    }

    @Override
    public TimestampData getTimestamp(int pos, int precision) {
        return row.getTimestamp(pos, precision);
    }

    @Override
    public <T> RawValueData<T> getRawValue(int pos) {
        return row.getRawValue(pos);
    }

    @Override
    public byte[] getBinary(int pos) {
        return row.getBinary(pos);
    }

    @Override
    public ArrayData getArray(int pos) {
        return row.getArray(pos);
    }

    @Override
    public MapData getMap(int pos) {
        return row.getMap(pos);
    }

    @Override
    public RowData getRow(int pos, int numFields) {
        return row.getRow(pos, numFields);
    }

    @Override
    public Variant getVariant(int pos) {
        return row.getVariant(pos);
    }
}
