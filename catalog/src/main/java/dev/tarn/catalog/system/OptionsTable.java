package dev.tarn.catalog.system;

import static dev.tarn.catalog.system.SystemTableValues.field;

import dev.tarn.format.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code t$options}: the options the table's latest schema stores, by key. Defaults the table does
 * not store and a query's hints are not shown: this is what the table itself says.
 */
final class OptionsTable {

    static final RowType TYPE =
            SystemTableValues.rowType(
                    field("key", DataTypes.STRING().notNull()),
                    field("value", DataTypes.STRING().notNull()));

    static List<RowData> rows(Table table) {
        List<RowData> rows = new ArrayList<>();
        for (Map.Entry<String, String> e : new TreeMap<>(table.schema().options()).entrySet()) {
            rows.add(
                    GenericRowData.of(
                            StringData.fromString(e.getKey()),
                            StringData.fromString(e.getValue())));
        }
        return rows;
    }

    private OptionsTable() {}
}
