package dev.tarn.format.lookup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.Table;
import dev.tarn.format.TestTables;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.schema.TableSchema;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Gets of a {@link TableLookup} against the rows a batch read gives, matched by join columns in
 * plain Java: a primary-key table by its whole key (any order), a prefix of it and another column,
 * an append table, keys present and absent, null keys, a pushed filter and a projection, and the
 * share of buckets of two subtasks.
 */
class TableLookupTest {

    /**
     * {@code (id BIGINT NOT NULL, k2 INT NOT NULL, city STRING, score BIGINT, dt STRING NOT NULL)}.
     */
    static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {
                        new BigIntType(false),
                        new IntType(false),
                        VarCharType.STRING_TYPE,
                        new BigIntType(),
                        new VarCharType(false, VarCharType.MAX_LENGTH)
                    },
                    new String[] {"id", "k2", "city", "score", "dt"});

    static final String[] CITIES = {"Oslo", "Bergen", "Tromsø", "Bodø", null};

    @TempDir java.nio.file.Path dir;

    private Table create(String name, List<String> primaryKeys, Map<String, String> options) {
        return Table.create(
                FileIO.flinkFileSystems(),
                new Path(dir.resolve(name).toUri()),
                "db." + name,
                TableSchema.create(TYPE, List.of("dt"), primaryKeys, options, null));
    }

    static GenericRowData row(RowKind kind, long id, int k2, String city, Long score, String dt) {
        GenericRowData row =
                GenericRowData.of(
                        id,
                        k2,
                        city == null ? null : StringData.fromString(city),
                        score,
                        StringData.fromString(dt));
        row.setRowKind(kind);
        return row;
    }

    /** Random upserts (and deletes where {@code deletes}) in {@code commits} commits. */
    static void writeRandom(Table table, long seed, int commits, boolean deletes) {
        Random random = new Random(seed);
        for (int c = 0; c < commits; c++) {
            List<RowData> rows = new ArrayList<>();
            for (int i = 0; i < 150; i++) {
                RowKind kind = deletes && random.nextInt(6) == 0 ? RowKind.DELETE : RowKind.INSERT;
                rows.add(
                        row(
                                kind,
                                random.nextInt(60),
                                random.nextInt(3),
                                CITIES[random.nextInt(CITIES.length)],
                                random.nextInt(5) == 0 ? null : (long) random.nextInt(100),
                                random.nextBoolean() ? "2026-01-01" : "2026-01-02"));
            }
            TestTables.append(table, c + 1, rows);
        }
    }

    /** Keys of the join columns: every combination of values present and absent. */
    static List<GenericRowData> keys(List<String> joinKeys) {
        List<List<Object>> values = new ArrayList<>();
        for (String column : joinKeys) {
            List<Object> column_values = new ArrayList<>();
            switch (column) {
                case "id" -> {
                    for (long id = 0; id < 64; id += 1) {
                        column_values.add(id);
                    }
                }
                case "k2" -> column_values.addAll(List.of(0, 1, 2, 3));
                case "city" -> {
                    for (String city : CITIES) {
                        column_values.add(city == null ? null : StringData.fromString(city));
                    }
                    column_values.add(StringData.fromString("Narvik"));
                }
                case "dt" ->
                        column_values.addAll(
                                List.of(
                                        StringData.fromString("2026-01-01"),
                                        StringData.fromString("2026-01-02"),
                                        StringData.fromString("2026-01-03")));
                default -> throw new IllegalArgumentException(column);
            }
            values.add(column_values);
        }
        List<GenericRowData> keys = new ArrayList<>();
        keys.add(new GenericRowData(0));
        for (List<Object> column : values) {
            List<GenericRowData> longer = new ArrayList<>();
            for (GenericRowData prefix : keys) {
                for (Object v : column) {
                    GenericRowData key = new GenericRowData(prefix.getArity() + 1);
                    for (int i = 0; i < prefix.getArity(); i++) {
                        key.setField(i, prefix.getField(i));
                    }
                    key.setField(prefix.getArity(), v);
                    longer.add(key);
                }
            }
            keys = longer;
        }
        return keys;
    }

    private LookupSpec spec(List<String> joinKeys, int[] projection, Predicate filter) {
        return new LookupSpec(joinKeys, projection, filter, 0, 1, dir.resolve("local"));
    }

    /** Opens a lookup of {@code spec} and checks every key's rows against the batch read. */
    static void checkGets(
            Table table,
            LookupSpec spec,
            java.util.function.Predicate<GenericRowData> filter,
            List<GenericRowData> keys)
            throws IOException {
        try (TableLookup lookup = table.newLookup(spec)) {
            lookup.open();
            Map<String, List<String>> expected =
                    LookupChecks.expected(table, LookupChecks.batchRows(table), spec, filter, keys);
            assertThat(LookupChecks.hits(expected)).as("keys with rows").isPositive();
            assertThat(LookupChecks.describe(LookupChecks.actual(table, lookup, spec, keys)))
                    .isEqualTo(LookupChecks.describe(expected));
            assertThat(lookup.snapshotId())
                    .isEqualTo(table.metadata().latestSnapshotId().orElse(-1));
        }
    }

    @Test
    void primaryKeyTableByWholeKeyInAnyOrder() throws IOException {
        Table table = create("pk", List.of("id", "k2", "dt"), Map.of("bucket", "4"));
        writeRandom(table, 1, 4, true);
        List<String> join = List.of("k2", "dt", "id");
        checkGets(table, spec(join, new int[] {3, 0, 2}, null), r -> true, keys(join));
    }

    @Test
    void primaryKeyTableByPrefixOfItsKey() throws IOException {
        Table table = create("prefix", List.of("id", "k2", "dt"), Map.of("bucket", "4"));
        writeRandom(table, 2, 4, true);
        List<String> join = List.of("dt", "id");
        checkGets(table, spec(join, new int[] {0, 1, 2, 3}, null), r -> true, keys(join));
        List<String> idOnly = List.of("id");
        checkGets(table, spec(idOnly, new int[] {1, 4}, null), r -> true, keys(idOnly));
    }

    @Test
    void primaryKeyTableByAnotherColumnWithFilter() throws IOException {
        Table table = create("secondary", List.of("id", "k2", "dt"), Map.of("bucket", "4"));
        writeRandom(table, 3, 4, true);
        List<String> join = List.of("city");
        Predicate scoreOver40 =
                new Predicate.Leaf(
                        Predicate.Op.GT, 3, "score", new BigIntType(), List.of((Object) 40L));
        checkGets(
                table,
                spec(join, new int[] {0, 1, 4}, scoreOver40),
                r -> r.getField(3) != null && (Long) r.getField(3) > 40,
                keys(join));
    }

    @Test
    void appendTableByAnyColumns() throws IOException {
        Table table = create("append", List.of(), Map.of("bucket", "2"));
        writeRandom(table, 4, 3, false);
        List<String> join = List.of("city", "k2");
        checkGets(table, spec(join, new int[] {0, 2, 3, 4}, null), r -> true, keys(join));
        List<String> byBucketKey = List.of("id", "k2", "city", "score", "dt");
        List<GenericRowData> present = new ArrayList<>();
        for (GenericRowData row : LookupChecks.batchRows(table)) {
            present.add(row);
        }
        checkGets(table, spec(byBucketKey, new int[] {0}, null), r -> true, present);
    }

    @Test
    void nullKeyFieldsFindNothingAndAnEmptyTableNothing() throws IOException {
        Table table = create("nulls", List.of("id", "k2", "dt"), Map.of("bucket", "2"));
        try (TableLookup lookup = table.newLookup(spec(List.of("city"), new int[] {0}, null))) {
            assertThatThrownBy(() -> lookup.get(GenericRowData.of(StringData.fromString("x"))))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("The lookup of table db.nulls is not open: call open() first");
            lookup.open();
            assertThat(lookup.snapshotId()).isEqualTo(-1);
            assertThat(lookup.get(GenericRowData.of(StringData.fromString("Oslo")))).isEmpty();
            TestTables.append(
                    table,
                    1,
                    List.of(
                            row(RowKind.INSERT, 1, 0, null, 5L, "d"),
                            row(RowKind.INSERT, 2, 0, "Oslo", 6L, "d")));
            assertThat(lookup.refresh()).isEqualTo(1);
            assertThat(lookup.get(GenericRowData.of((Object) null))).isEmpty();
            assertThat(lookup.get(GenericRowData.of(StringData.fromString("Oslo"))))
                    .extracting(r -> r.getLong(0))
                    .containsExactly(2L);
        }
    }

    @Test
    void badJoinColumnsAndProjectionsAreNamed() {
        Table table = create("bad", List.of("id", "k2", "dt"), Map.of("bucket", "2"));
        assertThatThrownBy(() -> table.newLookup(spec(List.of("town"), new int[] {0}, null)))
                .hasMessage(
                        "Cannot look up table db.bad by column 'town': it has no such column"
                                + " (columns: [id, k2, city, score, dt])");
        assertThatThrownBy(() -> table.newLookup(spec(List.of("id"), new int[] {7}, null)))
                .hasMessage("Cannot project field 7 of table db.bad: it has fields 0 to 4");
        assertThatThrownBy(() -> new LookupSpec(List.of("id"), new int[] {0}, null, 2, 2, dir))
                .hasMessageContaining("Invalid lookup subtask 2 of 2");
    }

    @Test
    void twoSubtasksHoldDisjointBucketsThatMakeUpTheTable() throws IOException {
        Table table = create("share", List.of("id", "k2", "dt"), Map.of("bucket", "4"));
        writeRandom(table, 5, 3, true);
        List<String> join = List.of("id", "k2", "dt");
        List<GenericRowData> keys = keys(join);
        LookupSpec all = spec(join, new int[] {0, 1, 4}, null);
        Map<String, List<String>> whole;
        try (TableLookup lookup = table.newLookup(all)) {
            lookup.open();
            whole = LookupChecks.actual(table, lookup, all, keys);
        }
        Set<String> seen = new HashSet<>();
        long held = 0;
        for (int subtask = 0; subtask < 2; subtask++) {
            LookupSpec share = new LookupSpec(join, new int[] {0, 1, 4}, null, subtask, 2, dir);
            LookupShuffle shuffle = LookupShuffle.of(table.schema(), 4, join).orElseThrow();
            try (TableLookup lookup = table.newLookup(share)) {
                lookup.open();
                for (GenericRowData key : keys) {
                    List<RowData> rows = lookup.get(key);
                    boolean mine = shuffle.subtask(key, 2) == subtask;
                    if (!mine) {
                        assertThat(rows).as("key %s of the other subtask", key).isEmpty();
                    }
                    for (RowData row : rows) {
                        assertThat(seen.add(key.toString())).as("held once: %s", key).isTrue();
                        held++;
                    }
                }
            }
        }
        assertThat(held).isEqualTo(LookupChecks.hits(whole)).isPositive();
        assertThat(seen)
                .containsExactlyInAnyOrderElementsOf(
                        whole.entrySet().stream()
                                .filter(e -> !e.getValue().isEmpty())
                                .map(Map.Entry::getKey)
                                .toList());
    }
}
