package dev.tarn.format.lsm.merge;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * Aggregate function {@code listagg}: the non-null strings in sequence order joined by {@code
 * fields.<f>.list-agg-delimiter} (default ","); null until a non-null string arrives. The bytes are
 * gathered in a buffer reused across keys. Cannot retract.
 */
final class ListAggAggregator implements FieldAggregator {

    private final String field;
    private final byte[] delimiter;
    private final ValueCell cell = new ValueCell();
    private byte[] bytes = new byte[64];
    private int length;
    private boolean empty;

    private ListAggAggregator(String field, String delimiter) {
        this.field = field;
        this.delimiter = delimiter.getBytes(StandardCharsets.UTF_8);
        reset();
    }

    static ListAggAggregator create(String field, LogicalType type, String delimiter) {
        LogicalTypeRoot root = type.getTypeRoot();
        if (root != LogicalTypeRoot.CHAR && root != LogicalTypeRoot.VARCHAR) {
            throw FieldAggregator.unsupportedType("listagg", field, type, "CHAR and VARCHAR");
        }
        return new ListAggAggregator(field, delimiter);
    }

    @Override
    public void reset() {
        length = 0;
        empty = true;
    }

    @Override
    public void add(RowData row, int pos) {
        if (row.isNullAt(pos)) {
            return;
        }
        BinaryStringData value = (BinaryStringData) row.getString(pos);
        value.ensureMaterialized();
        int size = value.getSizeInBytes();
        int separator = empty ? 0 : delimiter.length;
        if (length + separator + size > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(length + separator + size, 2 * bytes.length));
        }
        System.arraycopy(delimiter, 0, bytes, length, separator);
        length += separator;
        BinarySegmentUtils.copyToBytes(value.getSegments(), value.getOffset(), bytes, length, size);
        length += size;
        empty = false;
    }

    @Override
    public void retract(RowData row, int pos) {
        throw FieldAggregator.cannotRetract("listagg", field);
    }

    @Nullable
    @Override
    public RowData source() {
        if (empty) {
            return null;
        }
        cell.setObject(BinaryStringData.fromBytes(Arrays.copyOf(bytes, length)));
        return cell;
    }
}
