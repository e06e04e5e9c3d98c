package dev.tarn.format.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.TestTables;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.write.TableWrite;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Option {@code ignore-delete} is read as a boolean: {@code 'false'} is the default. */
class IgnoreDeleteReadTest {

    /** {@code (id BIGINT NOT NULL, payload STRING, PRIMARY KEY (id))}: a wide value column. */
    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {new BigIntType(false), VarCharType.STRING_TYPE},
                    new String[] {"id", "payload"});

    private static final RowType ID_ONLY =
            RowType.of(new LogicalType[] {new BigIntType(false)}, new String[] {"id"});

    @TempDir java.nio.file.Path tempDir;

    private Table create(String name, Map<String, String> options) {
        return Table.create(
                FileIO.flinkFileSystems(),
                new Path(tempDir.resolve(name).toUri()),
                "db." + name,
                TableSchema.create(TYPE, List.of(), List.of("id"), options, null));
    }

    /** A row whose payload is 200 random letters, which compression cannot shrink much. */
    private static RowData row(RowKind kind, long id) {
        Random random = new Random(id);
        StringBuilder payload = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            payload.append((char) ('a' + random.nextInt(26)));
        }
        GenericRowData row = GenericRowData.of(id, StringData.fromString(payload.toString()));
        row.setRowKind(kind);
        return row;
    }

    /** Keys 0..99 in one commit, then a delete of key 7 in a second one. */
    private static void writeAndDeleteSeven(Table table) throws IOException {
        try (TableWrite write = table.newWrite()) {
            for (long id = 0; id < 100; id++) {
                write.write(row(RowKind.INSERT, id));
            }
            TestTables.commit(table, "user", CommitRequest.of(1, write.prepareCommit(false)));
            write.write(row(RowKind.DELETE, 7));
            TestTables.commit(table, "user", CommitRequest.of(2, write.prepareCommit(false)));
        }
    }

    /** The ids a read of {@code readType} returns, and the bytes it read. */
    private record Result(List<Long> ids, long bytes) {}

    private static Result read(Table table, RowType readType) throws IOException {
        List<Long> ids = new ArrayList<>();
        long bytes = 0;
        TableRead read = table.newRead().withReadType(readType);
        for (Split split : table.newScan().plan().splits()) {
            try (TableRead.SplitReader reader = read.open(split)) {
                for (RowData r = reader.next(); r != null; r = reader.next()) {
                    ids.add(r.getLong(0));
                }
                bytes += reader.bytesRead();
            }
        }
        ids.sort(null);
        return new Result(ids, bytes);
    }

    @Test
    void falseKeepsDeletesAndReadsOnlyTheProjectedColumns() throws IOException {
        Table table = create("keeps", Map.of("bucket", "1", "ignore-delete", "false"));
        writeAndDeleteSeven(table);

        Result all = read(table, TYPE);
        Result ids = read(table, ID_ONLY);
        assertThat(all.ids()).hasSize(99).doesNotContain(7L);
        assertThat(ids.ids()).isEqualTo(all.ids());
        assertThat(ids.bytes())
                .as("a read of the key alone skips the wide column, as without the option")
                .isLessThan(all.bytes() / 2);
    }

    @Test
    void trueDropsDeletes() throws IOException {
        Table table = create("drops", Map.of("bucket", "1", "ignore-delete", "true"));
        writeAndDeleteSeven(table);

        assertThat(read(table, TYPE).ids()).hasSize(100).contains(7L);
        assertThat(read(table, ID_ONLY).ids()).hasSize(100).contains(7L);
    }
}
