package dev.tarn.format.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.schema.SchemaChange;
import dev.tarn.format.schema.SchemaChange.AddColumn;
import dev.tarn.format.schema.SchemaChange.DropColumn;
import dev.tarn.format.schema.SchemaChange.Position;
import dev.tarn.format.schema.SchemaChange.RenameColumn;
import dev.tarn.format.schema.SchemaChange.UpdateColumnType;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.write.TableWrite;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commit-time schema check: a writer that started under an older schema keeps committing
 * through every compatible change (its snapshots record its schema id), and is refused, with a
 * message naming the table, both schema ids and the reason, once the table changed in a way its
 * files cannot honour.
 */
class WriterSchemaCheckTest {

    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {
                        new BigIntType(false), new IntType(), new VarCharType(5), new IntType()
                    },
                    new String[] {"k", "n", "s", "legacy"});

    @TempDir java.nio.file.Path dir;

    private static RowData row(long k) {
        return GenericRowData.of(k, (int) k * 10, StringData.fromString("s" + k), -1);
    }

    @Test
    void aWriterKeepsCommittingUnderItsSchemaThroughCompatibleChanges() throws Exception {
        EvolvingTable t = new EvolvingTable(dir, TYPE, List.of("k"));
        Table writer = t.table();
        try (TableWrite write = writer.newWrite()) {
            write.write(row(1));
            TestTables.commit(writer, "job", CommitRequest.of(1, write.prepareCommit(false)));
            t.evolve(
                    List.of(
                            new AddColumn("email", VarCharType.STRING_TYPE, null, Position.FIRST),
                            new RenameColumn("s", "name"),
                            new UpdateColumnType("n", new BigIntType()),
                            new DropColumn("legacy")));
            Map<String, String> options = new HashMap<>(t.schema().options());
            options.put("snapshot.num-retained.min", "5");
            t.setOptions(options);
            write.write(row(2));
            write.write(row(1));
            assertThat(
                            TestTables.commit(
                                            writer,
                                            "job",
                                            CommitRequest.of(2, write.prepareCommit()))
                                    .snapshotId())
                    .hasValue(2);
        }
        assertThat(TableInternals.context(t.table()).snapshotManager().snapshot(2).schemaId())
                .isZero();
        assertThat(t.read(null))
                .containsExactly(
                        Arrays.asList(null, "1", "10", "s1"), Arrays.asList(null, "2", "20", "s2"));
    }

    @Test
    void aChangeOfAnOptionThatShapesStoredRowsRefusesTheWritersCommit() throws Exception {
        // No snapshot yet: ALTER TABLE may still change the bucket count under a running writer.
        EvolvingTable t = new EvolvingTable(dir, TYPE, List.of("k"));
        Table writer = t.table();
        try (TableWrite write = writer.newWrite()) {
            write.write(row(1));
            Map<String, String> options = new HashMap<>(t.schema().options());
            options.put("bucket", "4");
            t.setOptions(options);
            var messages = write.prepareCommit();
            assertThatThrownBy(
                            () ->
                                    TestTables.commit(writer, "job", CommitRequest.of(1, messages))
                                            .snapshotId())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage(
                            "Cannot commit to table db.t files written under schema 0: the latest"
                                    + " schema is 1, and option 'bucket', which shapes how rows"
                                    + " are stored, changed from '2' to '4'. Submit the job again"
                                    + " so it writes under the latest schema.");
        }
        assertThat(TableInternals.context(t.table()).snapshotManager().latestId()).isEmpty();
    }

    @Test
    void aTableCreatedAgainUnderTheWriterRefusesItsCommit() throws Exception {
        EvolvingTable t = new EvolvingTable(dir, TYPE, List.of());
        Table writer = t.table();
        Path location = new Path(dir.toUri());
        FileIO io = FileIO.flinkFileSystems();
        try (TableWrite write = writer.newWrite()) {
            write.write(row(1));
            io.delete(location, true);
            RowType other =
                    RowType.of(
                            new LogicalType[] {new IntType(), VarCharType.STRING_TYPE},
                            new String[] {"a", "b"});
            Table again =
                    Table.create(
                            io,
                            location,
                            "db.t",
                            TableSchema.create(other, List.of(), List.of(), Map.of(), null));
            again.alter(List.of(new SchemaChange.SetOption("snapshot.num-retained.min", "5")));
            var messages = write.prepareCommit();
            assertThatThrownBy(
                            () ->
                                    TestTables.commit(writer, "job", CommitRequest.of(1, messages))
                                            .snapshotId())
                    .hasMessage(
                            "Cannot commit to table db.t files written under schema 0: the latest"
                                    + " schema is 1, and the table's schema 0 is no longer the"
                                    + " writer's (was the table dropped and created again?)."
                                    + " Submit the job again so it writes under the latest"
                                    + " schema.");
        }
    }
}
