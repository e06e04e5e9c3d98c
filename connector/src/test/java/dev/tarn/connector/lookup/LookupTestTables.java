package dev.tarn.connector.lookup;

import dev.tarn.format.Table;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.write.CommitMessage;
import dev.tarn.format.write.TableWrite;
import java.io.File;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/** The dimension table of the lookup tests. */
final class LookupTestTables {

    private LookupTestTables() {}

    /**
     * A primary-key table {@code db.customers (id BIGINT, name STRING)} of two buckets in {@code
     * dir}, with one commit of keys {@code 0 .. keys - 1}, each named {@code name-<id>}.
     */
    static Table customers(File dir, int keys) throws Exception {
        RowType type =
                RowType.of(
                        new LogicalType[] {new BigIntType(false), VarCharType.STRING_TYPE},
                        new String[] {"id", "name"});
        Table table =
                Table.create(
                        FileIO.flinkFileSystems(),
                        new Path(dir.toURI()),
                        "db.customers",
                        TableSchema.create(
                                type, List.of(), List.of("id"), Map.of("bucket", "2"), null));
        List<CommitMessage> messages;
        try (TableWrite write = table.newWrite()) {
            for (long id = 0; id < keys; id++) {
                write.write(GenericRowData.of(id, StringData.fromString("name-" + id)));
            }
            messages = write.prepareCommit();
        }
        try (TableCommit commit = table.newCommit("writer")) {
            commit.commit(CommitRequest.of(1, messages));
        }
        return table;
    }
}
