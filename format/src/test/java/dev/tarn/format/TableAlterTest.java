package dev.tarn.format;

import static dev.tarn.format.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.io.FileIO;
import dev.tarn.format.schema.SchemaChange.AddColumn;
import dev.tarn.format.schema.SchemaChange.DropWatermark;
import dev.tarn.format.schema.SchemaChange.RemoveOption;
import dev.tarn.format.schema.SchemaChange.RenameColumn;
import dev.tarn.format.schema.SchemaChange.SetComputedColumns;
import dev.tarn.format.schema.SchemaChange.SetOption;
import dev.tarn.format.schema.SchemaChange.SetWatermark;
import dev.tarn.format.schema.SchemaChange.UpdateComment;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.schema.TableSchema.ComputedColumn;
import dev.tarn.format.schema.TableSchema.WatermarkSpec;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Table#alter}: a list of schema changes applied in order, checked by every rule of ALTER
 * TABLE, and published as one new schema version, or nothing.
 */
class TableAlterTest {

    /** {@code (id BIGINT NOT NULL, v STRING, ts TIMESTAMP(3), PRIMARY KEY (id))}. */
    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {
                        new BigIntType(false), VarCharType.STRING_TYPE, new TimestampType(3)
                    },
                    new String[] {"id", "v", "ts"});

    @TempDir java.nio.file.Path dir;
    private Path location;
    private Table table;

    @BeforeEach
    void create() {
        location = new Path(dir.toUri());
        table =
                Table.create(
                        FileIO.flinkFileSystems(),
                        location,
                        "db.t",
                        TableSchema.create(
                                TYPE, List.of(), List.of("id"), Map.of("bucket", "2"), null));
    }

    private TableSchema stored() {
        return Table.load(FileIO.flinkFileSystems(), location, "db.t").schema();
    }

    private java.nio.file.Path schemaFile(long id) {
        return dir.resolve("schema").resolve("schema-" + id);
    }

    @Test
    void changesApplyInOrderAsOneNewSchema() {
        WatermarkSpec watermark = new WatermarkSpec("ts", "`ts` - INTERVAL '5' SECOND");
        ComputedColumn upper = new ComputedColumn("big", "UPPER(`value`)", 4, null);
        TableSchema next =
                table.alter(
                                List.of(
                                        // The default first: the NOT NULL column after it needs it.
                                        new SetOption("fields.n.default-value", "7"),
                                        new AddColumn("n", new IntType(false), "a number", null),
                                        new RenameColumn("v", "value"),
                                        new SetOption("target-file-size", "64mb"),
                                        new UpdateComment("the events"),
                                        new SetWatermark(watermark),
                                        new SetComputedColumns(List.of(upper))))
                        .orElseThrow();

        assertThat(next.id()).isEqualTo(1);
        assertThat(stored()).isEqualTo(next);
        assertThat(next.fieldNames()).containsExactly("id", "value", "ts", "n");
        assertThat(next.fields().get(3).id()).isEqualTo(3);
        assertThat(next.options())
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of(
                                "bucket", "2",
                                "fields.n.default-value", "7",
                                "target-file-size", "64mb"));
        assertThat(next.comment()).isEqualTo("the events");
        assertThat(next.watermark()).isEqualTo(watermark);
        assertThat(next.computedColumns()).containsExactly(upper);
        assertThat(schemaFile(2)).doesNotExist();
    }

    @Test
    void orderMatters() {
        assertThatThrownBy(
                        () ->
                                table.alter(
                                        List.of(
                                                new AddColumn("n", new IntType(false), null, null),
                                                new SetOption("fields.n.default-value", "7"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Cannot add column n INT NOT NULL of table db.t: rows written before have"
                                + " no value for it; give it a default (option"
                                + " 'fields.n.default-value') or add it as a nullable column");
        assertThat(schemaFile(1)).doesNotExist();
    }

    @Test
    void removeOptionAndDropWatermarkTakeBackWhatWasSet() {
        table.alter(
                List.of(
                        new SetOption("snapshot.num-retained.min", "5"),
                        new SetWatermark(new WatermarkSpec("ts", "`ts`"))));
        Table altered = Table.load(FileIO.flinkFileSystems(), location, "db.t");
        TableSchema next =
                altered.alter(
                                List.of(
                                        new RemoveOption("snapshot.num-retained.min"),
                                        new DropWatermark(),
                                        new UpdateComment(null)))
                        .orElseThrow();
        assertThat(next.id()).isEqualTo(2);
        assertThat(next.options()).isEqualTo(Map.of("bucket", "2"));
        assertThat(next.watermark()).isNull();
        assertThat(next.comment()).isNull();
    }

    @Test
    void changesThatChangeNothingWriteNoSchema() {
        assertThat(table.alter(List.of())).isEmpty();
        assertThat(
                        table.alter(
                                List.of(
                                        new SetOption("bucket", "2"),
                                        new RemoveOption("target-file-size"),
                                        new UpdateComment(null),
                                        new DropWatermark())))
                .isEmpty();
        assertThat(schemaFile(1)).doesNotExist();
    }

    @Test
    void aRejectedChangeLeavesNoNewSchema() {
        TestTables.append(table, 1, List.of(row(1L, "a", null)));
        assertThatThrownBy(
                        () ->
                                table.alter(
                                        List.of(
                                                new SetOption("target-file-size", "64mb"),
                                                new RenameColumn("v", "value"),
                                                new SetOption("bucket", "8"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Cannot alter table db.t: option 'bucket' is fixed once the table has data"
                                + " (it is at snapshot 1): the table has '2', ALTER TABLE gives"
                                + " '8'. Create a new table to change it.");
        assertThatThrownBy(() -> table.alter(List.of(new SetOption("target-file-sise", "1mb"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Unknown option 'target-file-sise' for table db.t.");
        assertThat(schemaFile(1)).doesNotExist();
        assertThat(stored().fieldNames()).containsExactly("id", "v", "ts");
    }

    @Test
    void eachOptionChangesWhereItsScopeAllows() throws Exception {
        // Before the first snapshot, even an option fixed at creation may change.
        table.alter(List.of(new SetOption("merge-engine", "first-row")));
        assertThat(stored().options()).containsEntry("merge-engine", "first-row");
        Table altered = Table.load(FileIO.flinkFileSystems(), location, "db.t");
        TestTables.append(altered, 1, List.of(row(1L, "a", null)));

        // Fixed at creation: neither SET nor RESET once there is data.
        assertThatThrownBy(() -> altered.alter(List.of(new RemoveOption("merge-engine"))))
                .hasMessage(
                        "Cannot alter table db.t: option 'merge-engine' is fixed once the table"
                                + " has data (it is at snapshot 1): the table has 'first-row',"
                                + " ALTER TABLE gives 'deduplicate' (the default). Create a new"
                                + " table to change it.");
        // One query's options: never stored.
        assertThatThrownBy(() -> altered.alter(List.of(new SetOption("scan.snapshot-id", "1"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Cannot alter table db.t: option 'scan.snapshot-id' applies to one query;"
                                + " give it as a hint (/*+ OPTIONS(...) */), not in ALTER TABLE");
        assertThat(schemaFile(2)).doesNotExist();
        // The table's own (ALTER TABLE) and tuning (per query) options may change any time.
        TableSchema next =
                altered.alter(
                                List.of(
                                        new SetOption("snapshot.time-retained", "2 h"),
                                        new SetOption("write-buffer-size", "64mb"),
                                        new SetOption("merge-engine", "first-row")))
                        .orElseThrow();
        assertThat(next.id()).isEqualTo(2);
        assertThat(Files.readString(schemaFile(2))).contains("\"snapshot.time-retained\"");
    }
}
