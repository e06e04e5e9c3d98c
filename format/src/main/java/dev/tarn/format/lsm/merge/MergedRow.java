package dev.tarn.format.lsm.merge;

import java.util.Arrays;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RawValueData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.types.RowKind;
import org.apache.flink.types.bitmap.Bitmap;
import org.apache.flink.types.variant.Variant;

/**
 * The result row of a merge that takes each field from somewhere else: field {@code i} is field
 * {@code position(i)} of {@code source(i)}, or null when the source is null. The partial-update and
 * aggregation engines point it at the versions they merged (valid until the next reset) or at
 * {@link ValueCell}s, so a merged row costs no copy. Only valid while its sources are.
 */
final class MergedRow implements RowData {

    private final RowData[] sources;
    private final int[] positions;
    private RowKind kind = RowKind.INSERT;

    MergedRow(int arity) {
        this.sources = new RowData[arity];
        this.positions = new int[arity];
    }

    void set(int field, RowData source, int position) {
        sources[field] = source;
        positions[field] = position;
    }

    /** Field {@code field} reads from the same field of {@code source}, or is null if null. */
    void set(int field, RowData source) {
        set(field, source, field);
    }

    void clear() {
        Arrays.fill(sources, null);
    }

    @Override
    public int getArity() {
        return sources.length;
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
        return sources[pos] == null || sources[pos].isNullAt(positions[pos]);
    }

    @Override
    public boolean getBoolean(int pos) {
        return sources[pos].getBoolean(positions[pos]);
    }

    @Override
    public byte getByte(int pos) {
        return sources[pos].getByte(positions[pos]);
    }

    @Override
    public short getShort(int pos) {
        return sources[pos].getShort(positions[pos]);
    }

    @Override
    public int getInt(int pos) {
        return sources[pos].getInt(positions[pos]);
    }

    @Override
    public long getLong(int pos) {
        return sources[pos].getLong(positions[pos]);
    }

    @Override
    public float getFloat(int pos) {
        return sources[pos].getFloat(positions[pos]);
    }

    @Override
    public double getDouble(int pos) {
        return sources[pos].getDouble(positions[pos]);
    }

    @Override
    public StringData getString(int pos) {
        return sources[pos].getString(positions[pos]);
    }

    @Override
    public DecimalData getDecimal(int pos, int precision, int scale) {
        return sources[pos].getDecimal(positions[pos], precision, scale);
    }

    @Override
    public TimestampData getTimestamp(int pos, int precision) {
        return sources[pos].getTimestamp(positions[pos], precision);
    }

    @Override
    public <T> RawValueData<T> getRawValue(int pos) {
        return sources[pos].getRawValue(positions[pos]);
    }

    @Override
    public byte[] getBinary(int pos) {
        return sources[pos].getBinary(positions[pos]);
    }

    @Override
    public ArrayData getArray(int pos) {
        return sources[pos].getArray(positions[pos]);
    }

    @Override
    public MapData getMap(int pos) {
        return sources[pos].getMap(positions[pos]);
    }

    @Override
    public RowData getRow(int pos, int numFields) {
        return sources[pos].getRow(positions[pos], numFields);
    }

    @Override
    public Variant getVariant(int pos) {
        return sources[pos].getVariant(positions[pos]);
    }

    @Override
    public Bitmap getBitmap(int pos) {
        return sources[pos].getBitmap(positions[pos]);
    }

    @Override
    public String toString() {
        return "MergedRow(" + kind.shortString() + ", " + sources.length + " fields)";
    }
}
