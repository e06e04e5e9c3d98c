package dev.tarn.catalog.system;

import static dev.tarn.catalog.system.SystemTableValues.field;

import dev.tarn.format.Table;
import dev.tarn.format.snapshot.Consumers.Consumer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code t$consumers}: each consumer id of the table's streaming readers with the next snapshot it
 * needs (which expiration keeps), by id.
 */
final class ConsumersTable {

    static final RowType TYPE =
            SystemTableValues.rowType(
                    field("consumer_id", DataTypes.STRING().notNull()),
                    field("next_snapshot_id", DataTypes.BIGINT().notNull()));

    static List<RowData> rows(Table table) {
        List<Consumer> consumers;
        try {
            consumers = table.consumers().all();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list consumers of table " + table.name(), e);
        }
        List<RowData> rows = new ArrayList<>();
        consumers.stream()
                .sorted(Comparator.comparing(Consumer::id))
                .forEach(
                        c ->
                                rows.add(
                                        GenericRowData.of(
                                                StringData.fromString(c.id()),
                                                c.nextSnapshotId())));
        return rows;
    }

    private ConsumersTable() {}
}
