package dev.tarn.format.lsm.merge;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RawValueData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.types.RowKind;
import org.apache.flink.types.variant.Variant;

/**
 * One computed value (an aggregate), readable as any field of a one-field row: the typed getters
 * ignore the position and narrow the held long or double to the asked width. Lets a {@link
 * MergedRow} read aggregates without boxing them; values are set in place.
 */
final class ValueCell implements RowData {

    private boolean isNull = true;
    private long longValue;
    private double doubleValue;
    private Object objectValue;

    void setNull() {
        isNull = true;
        objectValue = null;
    }

    void setLong(long value) {
        isNull = false;
        longValue = value;
    }

    void setDouble(double value) {
        isNull = false;
        doubleValue = value;
    }

    void setBoolean(boolean value) {
        setLong(value ? 1 : 0);
    }

    void setObject(Object value) {
        isNull = value == null;
        objectValue = value;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public RowKind getRowKind() {
        return RowKind.INSERT;
    }

    @Override
    public void setRowKind(RowKind kind) {
        throw new UnsupportedOperationException("A value cell has no row kind");
    }

    @Override
    public boolean isNullAt(int pos) {
        return isNull;
    }

    @Override
    public boolean getBoolean(int pos) {
        return longValue != 0;
    }

    @Override
    public byte getByte(int pos) {
        return (byte) longValue;
    }

    @Override
    public short getShort(int pos) {
        return (short) longValue;
    }

    @Override
    public int getInt(int pos) {
        return (int) longValue;
    }

    @Override
    public long getLong(int pos) {
        return longValue;
    }

    @Override
    public float getFloat(int pos) {
        return (float) doubleValue;
    }

    @Override
    public double getDouble(int pos) {
        return doubleValue;
    }

    @Override
    public StringData getString(int pos) {
        return (StringData) objectValue;
    }

    @Override
    public DecimalData getDecimal(int pos, int precision, int scale) {
        return (DecimalData) objectValue;
    }

    @Override
    public TimestampData getTimestamp(int pos, int precision) {
        return (TimestampData) objectValue;
    }

    @Override
    public <T> RawValueData<T> getRawValue(int pos) {
        throw new UnsupportedOperationException("A value cell holds no raw values");
    }

    @Override
    public byte[] getBinary(int pos) {
        return (byte[]) objectValue;
    }

    @Override
    public ArrayData getArray(int pos) {
        return (ArrayData) objectValue;
    }

    @Override
    public MapData getMap(int pos) {
        return (MapData) objectValue;
    }

    @Override
    public RowData getRow(int pos, int numFields) {
        return (RowData) objectValue;
    }

    @Override
    public Variant getVariant(int pos) {
        return (Variant) objectValue;
    }
}
