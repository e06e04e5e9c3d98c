package dev.tarn.catalog.system;

import static dev.tarn.catalog.system.SystemTableValues.field;
import static dev.tarn.catalog.system.SystemTableValues.time;
import static dev.tarn.catalog.system.SystemTableValues.timestamp;

import dev.tarn.format.Table;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.Tags;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code t$tags}: each tag of the table with the snapshot it keeps, by snapshot id then name;
 * {@code time_retained} is the tag's retention as an ISO-8601 duration, null if it is kept until
 * deleted.
 */
final class TagsTable {

    static final RowType TYPE =
            SystemTableValues.rowType(
                    field("tag_name", DataTypes.STRING().notNull()),
                    field("snapshot_id", DataTypes.BIGINT().notNull()),
                    field("schema_id", DataTypes.BIGINT().notNull()),
                    field("commit_time", time().notNull()),
                    field("record_count", DataTypes.BIGINT()),
                    field("create_time", time()),
                    field("time_retained", DataTypes.STRING()));

    static List<RowData> rows(Table table) {
        List<RowData> rows = new ArrayList<>();
        for (Tags.Tag tag : table.metadata().tags()) {
            Snapshot snapshot = tag.snapshot();
            rows.add(
                    GenericRowData.of(
                            StringData.fromString(tag.name()),
                            snapshot.id(),
                            snapshot.schemaId(),
                            timestamp(snapshot.commit().timeMillis()),
                            snapshot.records().total(),
                            timestamp(tag.createdMillis()),
                            tag.timeRetained() == null
                                    ? null
                                    : StringData.fromString(tag.timeRetained().toString())));
        }
        return rows;
    }

    private TagsTable() {}
}
