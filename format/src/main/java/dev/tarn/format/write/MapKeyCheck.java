package dev.tarn.format.write;

import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Refuses a row that holds a NULL map key, at any depth (in an ARRAY, a ROW or another map's
 * values), before a writer takes it: Parquet's MAP requires keys, so other readers may fail on a
 * file that holds one. A MULTISET is stored as a map from element to count, so a NULL element is
 * refused too. Built once per {@link TableWrite} for the columns whose type holds a map; a table
 * without one has no check and its rows cost nothing. Only new rows are checked: a compaction
 * rewrites files as they are.
 *
 * <p>Errors name the place of the key in the column: {@code a[]} an element of array {@code a} or a
 * value of map {@code a}, {@code a[key]} a key of map {@code a}, {@code r.f} field {@code f} of row
 * {@code r}.
 */
final class MapKeyCheck {

    /** Where a NULL key was found, below the value checked, and in what kind of collection. */
    private record Found(String place, boolean multiset) {
        Found below(String step) {
            return new Found(step + place, multiset);
        }
    }

    /** The check of one value that holds a map; returns where a NULL key is, or null. */
    private interface Check {
        @Nullable
        Found nullKeyIn(Object value);
    }

    private final String table;
    private final RowType type;
    private final int[] columns;
    private final RowData.FieldGetter[] getters;
    private final Check[] checks;

    private MapKeyCheck(String table, RowType type, List<Integer> columns, List<Check> checks) {
        this.table = table;
        this.type = type;
        this.columns = columns.stream().mapToInt(Integer::intValue).toArray();
        this.getters = new RowData.FieldGetter[this.columns.length];
        for (int i = 0; i < this.columns.length; i++) {
            getters[i] =
                    RowData.createFieldGetter(type.getTypeAt(this.columns[i]), this.columns[i]);
        }
        this.checks = checks.toArray(new Check[0]);
    }

    /** The check of rows of {@code type}, or null if no column holds a map. */
    @Nullable
    static MapKeyCheck of(String table, RowType type) {
        List<Integer> columns = new ArrayList<>();
        List<Check> checks = new ArrayList<>();
        for (int i = 0; i < type.getFieldCount(); i++) {
            Check check = checkOf(type.getTypeAt(i));
            if (check != null) {
                columns.add(i);
                checks.add(check);
            }
        }
        return columns.isEmpty() ? null : new MapKeyCheck(table, type, columns, checks);
    }

    /**
     * @throws IllegalArgumentException naming the table, the column, its type and the place of the
     *     NULL key if {@code row} holds one
     */
    void check(RowData row) {
        for (int i = 0; i < columns.length; i++) {
            Object value = getters[i].getFieldOrNull(row);
            Found found = value == null ? null : checks[i].nullKeyIn(value);
            if (found != null) {
                throw refusal(columns[i], found);
            }
        }
    }

    private IllegalArgumentException refusal(int column, Found found) {
        String name = type.getFieldNames().get(column);
        return new IllegalArgumentException(
                String.format(
                        "Cannot write a row to table %s: column %s (%s) holds a NULL %s%s, which"
                                + " Parquet data files cannot store (%s); %s",
                        table,
                        name,
                        type.getTypeAt(column).asSummaryString(),
                        found.multiset() ? "multiset element" : "map key",
                        found.place().isEmpty() ? "" : " at " + name + found.place(),
                        found.multiset()
                                ? "a multiset is stored as a map from element to count, and map"
                                        + " keys are required"
                                : "map keys are required",
                        found.multiset()
                                ? "leave the element out"
                                : "leave the entry out or give it a key"));
    }

    /** The check of values of {@code type}, or null if they cannot hold a map. */
    @Nullable
    private static Check checkOf(LogicalType type) {
        return switch (type.getTypeRoot()) {
            case MAP -> {
                MapType map = (MapType) type;
                yield entries(map.getKeyType(), map.getValueType(), false);
            }
            case MULTISET -> entries(((MultisetType) type).getElementType(), null, true);
            case ARRAY -> {
                LogicalType element = ((ArrayType) type).getElementType();
                Check check = checkOf(element);
                yield check == null ? null : elements(element, check, "[]");
            }
            case ROW -> fields((RowType) type);
            default -> null;
        };
    }

    /** A map's (or a multiset's) keys, then what its keys and values hold. */
    private static Check entries(
            LogicalType keyType, @Nullable LogicalType valueType, boolean multiset) {
        Check keys = checkOf(keyType);
        Check inKeys = keys == null ? null : elements(keyType, keys, "[key]");
        Check values = valueType == null ? null : checkOf(valueType);
        Check inValues = values == null ? null : elements(valueType, values, "[]");
        return value -> {
            MapData map = (MapData) value;
            ArrayData keyArray = map.keyArray();
            for (int i = 0; i < keyArray.size(); i++) {
                if (keyArray.isNullAt(i)) {
                    return new Found("", multiset);
                }
            }
            Found found = inKeys == null ? null : inKeys.nullKeyIn(keyArray);
            return found != null || inValues == null ? found : inValues.nullKeyIn(map.valueArray());
        };
    }

    /** Each element of an array (a map's keys or values too) by {@code check}. */
    private static Check elements(LogicalType elementType, Check check, String step) {
        ArrayData.ElementGetter getter = ArrayData.createElementGetter(elementType);
        return value -> {
            ArrayData array = (ArrayData) value;
            for (int i = 0; i < array.size(); i++) {
                Object element = getter.getElementOrNull(array, i);
                Found found = element == null ? null : check.nullKeyIn(element);
                if (found != null) {
                    return found.below(step);
                }
            }
            return null;
        };
    }

    /** The fields of a row that hold a map, or null if none does. */
    @Nullable
    private static Check fields(RowType type) {
        List<RowData.FieldGetter> getters = new ArrayList<>();
        List<Check> checks = new ArrayList<>();
        List<String> steps = new ArrayList<>();
        for (int i = 0; i < type.getFieldCount(); i++) {
            Check check = checkOf(type.getTypeAt(i));
            if (check != null) {
                getters.add(RowData.createFieldGetter(type.getTypeAt(i), i));
                checks.add(check);
                steps.add("." + type.getFieldNames().get(i));
            }
        }
        if (checks.isEmpty()) {
            return null;
        }
        return value -> {
            RowData row = (RowData) value;
            for (int i = 0; i < checks.size(); i++) {
                Object field = getters.get(i).getFieldOrNull(row);
                Found found = field == null ? null : checks.get(i).nullKeyIn(field);
                if (found != null) {
                    return found.below(steps.get(i));
                }
            }
            return null;
        };
    }
}
