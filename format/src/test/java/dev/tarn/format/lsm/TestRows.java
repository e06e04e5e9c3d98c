package dev.tarn.format.lsm;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RawValueData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RawType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.apache.flink.types.bitmap.Bitmap;
import org.apache.flink.types.variant.Variant;

/** Rows and key values for the lsm tests, and their values as plain Java for comparisons. */
public final class TestRows {

    private TestRows() {}

    /** A row of Java values; Strings become StringData, the rest is taken as given. */
    public static GenericRowData row(Object... values) {
        GenericRowData row = new GenericRowData(values.length);
        for (int i = 0; i < values.length; i++) {
            row.setField(i, values[i] instanceof String s ? StringData.fromString(s) : values[i]);
        }
        return row;
    }

    public static KeyValue kv(long sequence, RowKind kind, Object... values) {
        GenericRowData row = row(values);
        row.setRowKind(kind);
        return new KeyValue(sequence, kind, row);
    }

    public static KeyValue insert(long sequence, Object... values) {
        return kv(sequence, RowKind.INSERT, values);
    }

    public static KeyValue delete(long sequence, Object... values) {
        return kv(sequence, RowKind.DELETE, values);
    }

    /**
     * An iterator over a run that, like a file reader, hands out one row object overwritten by
     * every {@code next()}, so that code keeping rows without copying them sees wrong values.
     */
    public static Iterator<KeyValue> reusing(List<KeyValue> run, RowType type) {
        RowCopier copier = new RowCopier(type);
        byte[] bytes = new byte[64 * 1024];
        BinaryRowData row = new BinaryRowData(type.getFieldCount());
        Iterator<KeyValue> source = run.iterator();
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return source.hasNext();
            }

            @Override
            public KeyValue next() {
                KeyValue kv = source.next();
                java.util.Arrays.fill(bytes, (byte) 0x5A); // garbage where the old row was
                int size = copier.prepare(kv.row(), kv.kind());
                copier.writePrepared(bytes, 0);
                row.pointTo(MemorySegmentFactory.wrap(bytes), 0, size);
                return new KeyValue(kv.sequence(), kv.kind(), row);
            }
        };
    }

    /** The values of a row as comparable Java objects (lists for arrays, rows; maps for maps). */
    public static List<Object> values(RowData row, RowType type) {
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < type.getFieldCount(); i++) {
            LogicalType fieldType = type.getTypeAt(i);
            Object value = RowData.createFieldGetter(fieldType, i).getFieldOrNull(row);
            values.add(plain(value, fieldType));
        }
        return values;
    }

    /** Key value as [sequence, kind, values...] for readable assertions. */
    public static List<Object> describe(KeyValue kv, RowType type) {
        List<Object> result = new ArrayList<>();
        result.add(kv.sequence());
        result.add(kv.kind().shortString());
        result.addAll(values(kv.row(), type));
        return result;
    }

    public static List<List<Object>> describeAll(Iterator<KeyValue> iterator, RowType type) {
        List<List<Object>> result = new ArrayList<>();
        while (iterator.hasNext()) {
            result.add(describe(iterator.next(), type));
        }
        return result;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object rawObject(RawValueData raw, RawType type) {
        return raw.toObject(type.getTypeSerializer());
    }

    private static Object plain(Object value, LogicalType type) {
        if (value == null) {
            return null;
        }
        if (value instanceof StringData || value instanceof Variant || value instanceof Bitmap) {
            return value.toString();
        }
        if (value instanceof RawValueData) {
            return rawObject((RawValueData) value, (RawType) type);
        }
        if (value instanceof byte[] bytes) {
            return Arrays.toString(bytes);
        }
        if (value instanceof RowData nested) {
            return values(nested, (RowType) type);
        }
        if (value instanceof ArrayData array) {
            LogicalType element = ((ArrayType) type).getElementType();
            ArrayData.ElementGetter getter = ArrayData.createElementGetter(element);
            List<Object> list = new ArrayList<>();
            for (int i = 0; i < array.size(); i++) {
                list.add(plain(getter.getElementOrNull(array, i), element));
            }
            return list;
        }
        if (value instanceof MapData map) {
            LogicalType keyType =
                    type instanceof MapType m
                            ? m.getKeyType()
                            : ((MultisetType) type).getElementType();
            LogicalType valueType =
                    type instanceof MapType m
                            ? m.getValueType()
                            : new org.apache.flink.table.types.logical.IntType(false);
            List<?> keys = (List<?>) plain(map.keyArray(), new ArrayType(keyType));
            List<?> vals = (List<?>) plain(map.valueArray(), new ArrayType(valueType));
            Map<Object, Object> result = new LinkedHashMap<>();
            for (int i = 0; i < keys.size(); i++) {
                result.put(keys.get(i), vals.get(i));
            }
            return result;
        }
        return value;
    }
}
