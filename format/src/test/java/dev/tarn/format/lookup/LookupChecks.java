package dev.tarn.format.lookup;

import dev.tarn.format.Table;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.TableRead;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * The reference a lookup is checked against: the table's rows from a batch read, matched by join
 * columns in plain Java, as text ({@code "1,a"}).
 */
final class LookupChecks {

    /** Every current row of the table's latest snapshot, as owned generic rows of its type. */
    static List<GenericRowData> batchRows(Table table) {
        RowType type = table.schema().rowType();
        List<GenericRowData> rows = new ArrayList<>();
        TableRead read = table.newRead();
        for (Split split : table.newScan().plan().splits()) {
            try (TableRead.SplitReader reader = read.open(split)) {
                for (RowData row = reader.next(); row != null; row = reader.next()) {
                    GenericRowData copy = new GenericRowData(type.getFieldCount());
                    for (int i = 0; i < type.getFieldCount(); i++) {
                        copy.setField(
                                i,
                                RowData.createFieldGetter(type.getTypeAt(i), i)
                                        .getFieldOrNull(row));
                    }
                    rows.add(copy);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return rows;
    }

    /**
     * For every key of {@code keys} (rows of the join columns' values), the rows of {@code rows}
     * whose join columns equal it and that pass {@code filter}, projected, as sorted text.
     */
    static Map<String, List<String>> expected(
            Table table,
            List<GenericRowData> rows,
            LookupSpec spec,
            Predicate<GenericRowData> filter,
            List<GenericRowData> keys) {
        int[] join = table.schema().fieldIndexes(spec.joinKeys());
        Map<String, List<String>> out = new TreeMap<>();
        for (GenericRowData key : keys) {
            List<String> matches = new ArrayList<>();
            for (GenericRowData row : rows) {
                boolean equal = true;
                for (int i = 0; i < join.length; i++) {
                    Object k = key.getField(i);
                    equal &= k != null && k.equals(row.getField(join[i]));
                }
                if (equal && filter.test(row)) {
                    List<String> fields = new ArrayList<>();
                    for (int f : spec.projection()) {
                        fields.add(String.valueOf(row.getField(f)));
                    }
                    matches.add(String.join(",", fields));
                }
            }
            matches.sort(null);
            out.put(key.toString(), matches);
        }
        return out;
    }

    /** What {@code lookup} returns for each of {@code keys}, as sorted text. */
    static Map<String, List<String>> actual(
            Table table, TableLookup lookup, LookupSpec spec, List<GenericRowData> keys) {
        RowType type = table.schema().rowType();
        int[] projection = spec.projection();
        Map<String, List<String>> out = new TreeMap<>();
        for (GenericRowData key : keys) {
            List<String> matches = new ArrayList<>();
            try {
                for (RowData row : lookup.get(key)) {
                    List<String> fields = new ArrayList<>();
                    for (int i = 0; i < projection.length; i++) {
                        fields.add(
                                String.valueOf(
                                        RowData.createFieldGetter(type.getTypeAt(projection[i]), i)
                                                .getFieldOrNull(row)));
                    }
                    matches.add(String.join(",", fields));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            matches.sort(null);
            out.put(key.toString(), matches);
        }
        return out;
    }

    /** How many keys of a result have rows: a check that a test looks at something. */
    static long hits(Map<String, List<String>> result) {
        return result.values().stream().filter(l -> !l.isEmpty()).count();
    }

    static String describe(Map<String, List<String>> result) {
        return result.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n"));
    }

    private LookupChecks() {}
}
