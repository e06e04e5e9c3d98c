package dev.tarn.format.parquet;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Flink internal data turned into plain, deeply comparable Java values (lists, maps, strings,
 * BigDecimals), read through the typed accessors, so rows of any RowData implementation compare by
 * content and the comparison exercises the same accessors as production readers.
 */
public final class CanonicalValues {

    private CanonicalValues() {}

    public static List<Object> row(RowData row, RowType type) {
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < type.getFieldCount(); i++) {
            values.add(
                    value(
                            RowData.createFieldGetter(type.getTypeAt(i), i).getFieldOrNull(row),
                            type.getTypeAt(i)));
        }
        return values;
    }

    static Object value(Object value, LogicalType type) {
        if (value == null) {
            return null;
        }
        switch (type.getTypeRoot()) {
            case CHAR:
            case VARCHAR:
                return "s:" + ((StringData) value).toString();
            case BINARY:
            case VARBINARY:
                return "b:" + HexFormat.of().formatHex((byte[]) value);
            case DECIMAL:
                return ((DecimalData) value).toBigDecimal();
            case ARRAY:
                return array((ArrayData) value, ((ArrayType) type).getElementType());
            case MAP:
                MapType map = (MapType) type;
                return map((MapData) value, map.getKeyType(), map.getValueType());
            case MULTISET:
                return map(
                        (MapData) value,
                        ((MultisetType) type).getElementType(),
                        new IntType(false));
            case ROW:
                RowType rowType = (RowType) type;
                return row((RowData) value, rowType);
            default:
                return value;
        }
    }

    private static List<Object> array(ArrayData array, LogicalType elementType) {
        ArrayData.ElementGetter getter = ArrayData.createElementGetter(elementType);
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            values.add(value(getter.getElementOrNull(array, i), elementType));
        }
        return values;
    }

    private static Map<Object, Object> map(
            MapData map, LogicalType keyType, LogicalType valueType) {
        List<Object> keys = array(map.keyArray(), keyType);
        List<Object> values = array(map.valueArray(), valueType);
        Map<Object, Object> result = new HashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            result.put(keys.get(i), values.get(i));
        }
        return result;
    }
}
