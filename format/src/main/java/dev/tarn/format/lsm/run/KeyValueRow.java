package dev.tarn.format.lsm.run;

import dev.tarn.format.lsm.KeyValue;
import dev.tarn.format.lsm.KeyValueSchema;
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
 * A change seen as a row of its data file ({@link KeyValueSchema#fileType()}): the table row's
 * fields, then the sequence number and the kind's byte. A reusable view: {@link #replace} points it
 * at the next change without copying or allocating.
 */
final class KeyValueRow implements RowData {

    private final int tableArity;
    private RowData row;
    private long sequence;
    private byte kind;

    KeyValueRow(int tableArity) {
        this.tableArity = tableArity;
    }

    KeyValueRow replace(KeyValue kv) {
        return replace(kv.sequence(), kv.kind(), kv.row());
    }

    KeyValueRow replace(long sequence, RowKind kind, RowData row) {
        this.row = row;
        this.sequence = sequence;
        this.kind = kind.toByteValue();
        return this;
    }

    @Override
    public int getArity() {
        return tableArity + 2;
    }

    @Override
    public RowKind getRowKind() {
        return RowKind.INSERT;
    }

    @Override
    public void setRowKind(RowKind kind) {
        throw new UnsupportedOperationException("A change's file row has no row kind of its own");
    }

    @Override
    public boolean isNullAt(int pos) {
        return pos < tableArity && row.isNullAt(pos);
    }

    @Override
    public boolean getBoolean(int pos) {
        return row.getBoolean(pos);
    }

    @Override
    public byte getByte(int pos) {
        return pos == tableArity + 1 ? kind : row.getByte(pos);
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
        return pos == tableArity ? sequence : row.getLong(pos);
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
