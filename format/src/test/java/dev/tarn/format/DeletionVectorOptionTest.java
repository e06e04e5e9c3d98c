package dev.tarn.format;

import static dev.tarn.format.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.deletion.DeletionVector;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.VectorChange;
import dev.tarn.format.schema.SchemaChange;
import dev.tarn.format.schema.SchemaChange.RemoveOption;
import dev.tarn.format.schema.SchemaChange.SetOption;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.write.CommitMessage;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rules of {@code deletion-vectors.enabled}: primary-key tables only, at CREATE TABLE and at
 * ALTER TABLE; turned on by ALTER TABLE whenever; turned off only while the latest snapshot has no
 * deletion vector.
 */
class DeletionVectorOptionTest {

    /** {@code (id BIGINT NOT NULL, v STRING)}. */
    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {new BigIntType(false), VarCharType.STRING_TYPE},
                    new String[] {"id", "v"});

    private static final String APPEND_REFUSED =
            "Option 'deletion-vectors.enabled' = '%s' of table db.t applies to primary-key tables"
                    + " only: rows of an append table are only ever added (and dropped by"
                    + " partition or overwrite), never replaced or deleted one by one, so it has no"
                    + " row to mark deleted. Declare a PRIMARY KEY, or remove the option";

    @TempDir java.nio.file.Path dir;

    private Table create(List<String> primaryKeys, Map<String, String> options) {
        return Table.create(
                FileIO.flinkFileSystems(),
                new Path(dir.toUri()),
                "db.t",
                TableSchema.create(TYPE, List.of(), primaryKeys, options, null));
    }

    @Test
    void anAppendTableRefusesTheOptionAtCreateAndAtAlter() {
        assertThatThrownBy(() -> create(List.of(), Map.of("deletion-vectors.enabled", "true")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(APPEND_REFUSED, "true");

        Table table = create(List.of(), Map.of());
        TestTables.append(table, 1, List.of(row(1L, "a")));
        assertThatThrownBy(
                        () ->
                                table.alter(
                                        List.of(new SetOption("deletion-vectors.enabled", "true"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(APPEND_REFUSED, "true");
        assertThatThrownBy(
                        () ->
                                table.alter(
                                        List.of(
                                                new SetOption(
                                                        "deletion-vectors.enabled", "false"))))
                .hasMessage(APPEND_REFUSED, "false");
        assertThat(reload().schema().id()).isZero();
    }

    private Table reload() {
        return Table.load(FileIO.flinkFileSystems(), new Path(dir.toUri()), "db.t");
    }

    @Test
    void aPrimaryKeyTableWithDataTurnsItOnByAlter() {
        Table table = create(List.of("id"), Map.of("bucket", "1"));
        TestTables.append(table, 1, List.of(row(1L, "a")));

        TableSchema next =
                table.alter(List.of(new SetOption("deletion-vectors.enabled", "true")))
                        .orElseThrow();

        assertThat(next.options()).containsEntry("deletion-vectors.enabled", "true");
        assertThat(reload().config().lsm().deletionVectors()).isTrue();
    }

    @Test
    void turningItOffIsRefusedWhileTheLatestSnapshotHasVectors() throws IOException {
        Table table =
                create(List.of("id"), Map.of("bucket", "1", "deletion-vectors.enabled", "true"));
        CommitMessage written = TestTables.write(table, List.of(row(1L, "a"), row(2L, "b"))).get(0);
        TestTables.commit(table, "writer", CommitRequest.of(1, List.of(written)));
        String file = written.newFiles().get(0).fileName();
        DeletionFile vector =
                TableInternals.context(table)
                        .indexFiles()
                        .write(Map.of(file, DeletionVector.of(0)))
                        .get(file);
        CommitMessage marks =
                new CommitMessage(
                                written.partition(),
                                written.bucket(),
                                written.totalBuckets(),
                                List.of(),
                                List.of())
                        .withVectors(List.of(new VectorChange(file, null, vector)));
        TestTables.commit(table, "writer", CommitRequest.of(2, List.of(marks)));

        String refused =
                "Cannot alter table db.t: option 'deletion-vectors.enabled' cannot be turned off"
                        + " while the table has deletion vectors (its latest snapshot, 2, has 1):"
                        + " read without them, the rows they delete would be back. A full"
                        + " compaction (CALL sys.compact) removes them; turn the option off after"
                        + " it";
        for (SchemaChange off :
                List.of(
                        new SetOption("deletion-vectors.enabled", "false"),
                        new RemoveOption("deletion-vectors.enabled"))) {
            assertThatThrownBy(() -> table.alter(List.of(off)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(refused);
        }
        assertThat(reload().schema().id()).isZero();
    }

    @Test
    void turningItOffIsAllowedWithoutVectors() {
        Table table =
                create(List.of("id"), Map.of("bucket", "1", "deletion-vectors.enabled", "true"));
        TestTables.append(table, 1, List.of(row(1L, "a")));

        assertThat(table.alter(List.of(new RemoveOption("deletion-vectors.enabled")))).isPresent();
        assertThat(reload().config().lsm().deletionVectors()).isFalse();
    }
}
