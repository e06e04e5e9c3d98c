package dev.tarn.format.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.maintenance.FullCompaction;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.schema.SchemaChange;
import dev.tarn.format.schema.SchemaChange.AddColumn;
import dev.tarn.format.schema.SchemaChange.DropColumn;
import dev.tarn.format.schema.SchemaChange.MoveColumn;
import dev.tarn.format.schema.SchemaChange.Position;
import dev.tarn.format.schema.SchemaChange.RenameColumn;
import dev.tarn.format.schema.SchemaChange.UpdateColumnType;
import dev.tarn.format.schema.TableSchema;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Files written under older schema versions read through the current one by field id: dropped
 * columns are not read, renamed ones found, added ones null, widened ones converted; a writer that
 * started under an older schema keeps committing files of its schema, readable through the new one.
 */
class SchemaEvolutionReadTest {

    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {
                        new BigIntType(false),
                        new IntType(),
                        new FloatType(),
                        new DecimalType(10, 2),
                        new VarCharType(5),
                        new IntType()
                    },
                    new String[] {"k", "n", "f", "d", "s", "legacy"});

    @TempDir java.nio.file.Path dir;

    private static GenericRowData oldRow(long k) {
        return GenericRowData.of(
                k,
                (int) k * 10,
                k + 0.25f,
                DecimalData.fromBigDecimal(BigDecimal.valueOf(k * 100 + 1, 2), 10, 2),
                StringData.fromString("s" + k),
                -1);
    }

    private static List<String> row(String... values) {
        return Arrays.asList(values);
    }

    private static void evolveAll(EvolvingTable t) {
        t.evolve(
                List.of(
                        new AddColumn("email", VarCharType.STRING_TYPE, null, Position.after("k")),
                        new RenameColumn("s", "name"),
                        new UpdateColumnType("n", new BigIntType()),
                        new UpdateColumnType("f", new DoubleType()),
                        new UpdateColumnType("d", new DecimalType(18, 4)),
                        new UpdateColumnType("name", VarCharType.STRING_TYPE),
                        new DropColumn("legacy"),
                        new MoveColumn("name", Position.FIRST)));
    }

    @Test
    void appendFilesOfTwoSchemaVersionsReadThroughTheCurrentOne() throws Exception {
        EvolvingTable t = new EvolvingTable(dir, TYPE, List.of());
        t.write(List.of(oldRow(1), oldRow(2)));
        Table before = t.table();
        evolveAll(t);
        assertThat(t.schema().fieldNames()).containsExactly("name", "k", "email", "n", "f", "d");
        t.write(
                List.of(
                        GenericRowData.of(
                                StringData.fromString("a long new name"),
                                3L,
                                StringData.fromString("x@y"),
                                30_000_000_000L,
                                3.5,
                                DecimalData.fromBigDecimal(new BigDecimal("3.0001"), 18, 4))));
        // A writer that started under schema 0 keeps writing files of schema 0.
        t.write(before, List.of(oldRow(4)));
        assertThat(
                        TableInternals.context(t.table())
                                .snapshotReader()
                                .liveFiles(
                                        TableInternals.context(t.table())
                                                .snapshotReader()
                                                .latest()
                                                .orElseThrow())
                                .values()
                                .stream()
                                .map(e -> e.file().schemaId())
                                .distinct()
                                .sorted())
                .containsExactly(0L, 1L);

        List<List<String>> expected =
                List.of(
                        row("a long new name", "3", "x@y", "30000000000", "3.5", "3.0001"),
                        row("s1", "1", null, "10", "1.25", "1.01"),
                        row("s2", "2", null, "20", "2.25", "2.01"),
                        row("s4", "4", null, "40", "4.25", "4.01"));
        assertThat(t.read(null)).isEqualTo(expected);

        t.compact();
        assertThat(t.read(null)).isEqualTo(expected);
    }

    @Test
    void aFilterOnAColumnOldFilesLackDoesNotPruneThemWrongly() throws Exception {
        EvolvingTable t = new EvolvingTable(dir, TYPE, List.of());
        t.write(List.of(oldRow(1)));
        evolveAll(t);
        // Positionally, the old file's statistics at "email"'s index are those of n (10 .. 10);
        // by id, the old file has no email: its rows read as null and the file is kept.
        Predicate isNull =
                new Predicate.Leaf(
                        Predicate.Op.IS_NULL, 2, "email", VarCharType.STRING_TYPE, List.of());
        assertThat(t.read(isNull)).extracting(r -> r.get(0)).contains("s1");
        // n (id 1) is at index 3 now; old statistics by position there would be those of f.
        Predicate nIsTen =
                new Predicate.Leaf(Predicate.Op.EQ, 3, "n", new BigIntType(), List.of(10L));
        assertThat(t.read(nIsTen)).extracting(r -> r.get(0)).contains("s1");
    }

    @Test
    void primaryKeyMergesSpanFilesOfDifferentSchemaVersions() throws Exception {
        EvolvingTable t = new EvolvingTable(dir, TYPE, List.of("k"));
        t.write(List.of(oldRow(1), oldRow(2), oldRow(3)));
        evolveAll(t);
        t.write(
                List.of(
                        GenericRowData.of(
                                StringData.fromString("new"),
                                2L,
                                StringData.fromString("e"),
                                7L,
                                0.5,
                                null)));
        List<List<String>> expected =
                List.of(
                        row("new", "2", "e", "7", "0.5", null),
                        row("s1", "1", null, "10", "1.25", "1.01"),
                        row("s3", "3", null, "30", "3.25", "3.01"));
        assertThat(t.read(null)).isEqualTo(expected);
        t.compact();
        assertThat(t.read(null)).isEqualTo(expected);
        assertThat(
                        TableInternals.context(t.table())
                                .snapshotReader()
                                .liveFiles(
                                        TableInternals.context(t.table())
                                                .snapshotReader()
                                                .latest()
                                                .orElseThrow())
                                .values()
                                .stream()
                                .map(e -> e.file())
                                .map(DataFile::schemaId))
                .containsOnly(1L);
    }

    @Test
    void ofTwoConcurrentChangesTheLoserFailsCleanly() throws Exception {
        EvolvingTable t = new EvolvingTable(dir, TYPE, List.of());
        Table stale = t.table();
        t.evolve(List.of(new DropColumn("legacy")));
        TableSchema lost =
                SchemaChange.apply(
                        "db.t",
                        stale.schema(),
                        List.of(new AddColumn("x", new IntType(), null, null)));
        assertThatThrownBy(() -> TableInternals.context(stale).schemaManager().commit(lost))
                .hasMessage(
                        "Cannot commit schema 1 of table db.t: another change created it first;"
                                + " retry");
        assertThat(TableInternals.context(t.table()).schemaManager().latest().fieldNames())
                .doesNotContain("x");
    }

    private static int plannedFiles(EvolvingTable t, Predicate filter) {
        return t.table().newScan().withFilter(filter).plan().splits().stream()
                .mapToInt(split -> split.files().size())
                .sum();
    }

    @Test
    void oldFilesArePrunedByTheirStatisticsFoundByFieldId() throws Exception {
        EvolvingTable t = new EvolvingTable(dir, TYPE, List.of());
        t.write(List.of(oldRow(1), oldRow(2)));
        t.evolve(
                List.of(
                        new RenameColumn("n", "m"),
                        new AddColumn("email", VarCharType.STRING_TYPE, null, Position.FIRST),
                        new UpdateColumnType("f", new DoubleType()),
                        new UpdateColumnType("m", new BigIntType()),
                        new UpdateColumnType("d", new DecimalType(18, 4))));
        // m (id 1, formerly n, widened to BIGINT) holds 10 and 20 in the old file, now at index 2.
        Predicate m99 = new Predicate.Leaf(Predicate.Op.EQ, 2, "m", new BigIntType(), List.of(99L));
        Predicate m20 = new Predicate.Leaf(Predicate.Op.EQ, 2, "m", new BigIntType(), List.of(20L));
        assertThat(plannedFiles(t, m99)).isZero();
        assertThat(plannedFiles(t, m20)).isEqualTo(1);
        // The old file has no email: all null in it.
        Predicate emailX =
                new Predicate.Leaf(
                        Predicate.Op.EQ,
                        0,
                        "email",
                        VarCharType.STRING_TYPE,
                        List.of(StringData.fromString("x")));
        Predicate emailNull =
                new Predicate.Leaf(
                        Predicate.Op.IS_NULL, 0, "email", VarCharType.STRING_TYPE, List.of());
        assertThat(plannedFiles(t, emailX)).isZero();
        assertThat(plannedFiles(t, emailNull)).isEqualTo(1);
        // A widened column's old bounds are converted to the new type, so they still prune.
        Predicate f99 =
                new Predicate.Leaf(Predicate.Op.EQ, 3, "f", new DoubleType(), List.of(99.0));
        Predicate fLow =
                new Predicate.Leaf(Predicate.Op.LT, 3, "f", new DoubleType(), List.of(1.5));
        assertThat(plannedFiles(t, f99)).isZero();
        assertThat(plannedFiles(t, fLow)).isEqualTo(1);
        DecimalType wide = new DecimalType(18, 4);
        Predicate dHigh =
                new Predicate.Leaf(
                        Predicate.Op.GT,
                        4,
                        "d",
                        wide,
                        List.of(DecimalData.fromBigDecimal(new BigDecimal("2.0100"), 18, 4)));
        Predicate dLow =
                new Predicate.Leaf(
                        Predicate.Op.LT,
                        4,
                        "d",
                        wide,
                        List.of(DecimalData.fromBigDecimal(new BigDecimal("1.0200"), 18, 4)));
        assertThat(plannedFiles(t, dHigh)).isZero();
        assertThat(plannedFiles(t, dLow)).isEqualTo(1);
        assertThat(t.read(m20)).extracting(r -> r.get(2)).containsExactly("10", "20");
    }

    @Test
    void anAppendTablesDerivedBucketKeyPrunesNoFileOnceItsColumnsChanged() throws Exception {
        // Found by SchemaEvolutionModelTest, seed 2: rows bucketed by all six columns, compacted
        // under a schema whose only column is k, were pruned by hashing k alone.
        EvolvingTable t = new EvolvingTable(dir, TYPE, List.of());
        List<RowData> rows = new ArrayList<>();
        for (long k = 1; k <= 8; k++) {
            rows.add(oldRow(k));
        }
        // Two files per bucket, so that the compaction rewrites them.
        t.write(rows.subList(0, 4));
        t.write(rows.subList(4, 8));
        t.evolve(
                List.of(
                        new DropColumn("n"),
                        new DropColumn("f"),
                        new DropColumn("d"),
                        new DropColumn("s"),
                        new DropColumn("legacy")));
        t.compact();
        assertThat(t.table().newScan().plan().splits())
                .allMatch(split -> split.files().stream().allMatch(f -> f.schemaId() == 1));
        for (long k = 1; k <= 8; k++) {
            Predicate isK =
                    new Predicate.Leaf(Predicate.Op.EQ, 0, "k", new BigIntType(false), List.of(k));
            assertThat(t.read(isK)).as("k = %d", k).contains(row(Long.toString(k)));
        }
    }

    @ParameterizedTest(name = "primary key {0}")
    @ValueSource(booleans = {false, true})
    void aWriterOfAnOlderSchemaDoesNotRewriteFilesWithColumnsItLacks(boolean primaryKey)
            throws Exception {
        EvolvingTable t = new EvolvingTable(dir, TYPE, primaryKey ? List.of("k") : List.of());
        List<RowData> before = new ArrayList<>();
        List<RowData> after = new ArrayList<>();
        for (long k = 1; k <= 6; k++) {
            GenericRowData row = oldRow(k);
            before.add(row);
            after.add(
                    GenericRowData.of(
                            k + 10,
                            row.getField(1),
                            row.getField(2),
                            row.getField(3),
                            row.getField(4),
                            -1,
                            StringData.fromString("e@x")));
        }
        // Both buckets get a file of each schema.
        t.write(before);
        Table stale = t.table();
        t.evolve(List.of(new AddColumn("email", VarCharType.STRING_TYPE, null, null)));
        t.write(after);
        assertThatThrownBy(() -> FullCompaction.run(TableInternals.context(stale)))
                .hasStackTraceContaining(
                        "it was written under the newer schema 1, whose columns"
                                + " [email] schema 0 lacks, so their values would be lost. Submit the job again"
                                + " so it writes under the table's current schema.");
        assertThat(t.read(null)).extracting(r -> r.get(6)).filteredOn("e@x"::equals).hasSize(6);
    }
}
