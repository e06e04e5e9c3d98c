package dev.tarn.connector.sink;

import dev.tarn.format.Table;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.write.CommitMessage;
import dev.tarn.format.write.TableWrite;
import java.io.File;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/** The append table {@code db.t (id BIGINT)} that the sink's unit tests commit to. */
final class IdTable {

    private IdTable() {}

    /** Creates the table in {@code dir}. */
    static Table create(File dir) {
        RowType type = RowType.of(new LogicalType[] {new BigIntType()}, new String[] {"id"});
        return Table.create(
                FileIO.flinkFileSystems(),
                new Path(dir.toURI()),
                "db.t",
                TableSchema.create(type, List.of(), List.of(), Map.of(), null));
    }

    /** The commit messages of a write of {@code ids}: one new data file, not yet committed. */
    static List<CommitMessage> rows(Table table, long... ids) throws Exception {
        try (TableWrite write = table.newWrite()) {
            for (long id : ids) {
                write.write(GenericRowData.of(id));
            }
            return write.prepareCommit();
        }
    }
}
