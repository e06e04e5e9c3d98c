package dev.tarn.format.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.TableInternals;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.StreamScan;
import dev.tarn.format.read.TableRead;
import dev.tarn.format.schema.SchemaChange;
import dev.tarn.format.schema.SchemaChange.AddColumn;
import dev.tarn.format.schema.SchemaChange.DropColumn;
import dev.tarn.format.schema.SchemaChange.MoveColumn;
import dev.tarn.format.schema.SchemaChange.Position;
import dev.tarn.format.schema.SchemaChange.RenameColumn;
import dev.tarn.format.schema.SchemaChange.UpdateColumnComment;
import dev.tarn.format.schema.SchemaChange.UpdateColumnType;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.schema.TableSchema.DataField;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
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
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Random series of allowed column changes on an append and a primary-key table (adds at every
 * position, NOT NULL ones with a default, drops, renames, moves, widenings, NOT NULL to nullable,
 * comments), with rows written under each schema and full compactions now and then; after every
 * step a batch read of the table equals a model that keeps each row's values by field id (a column
 * added after the row was written reads as its default, else null), and a scan filtered on a random
 * column keeps every file with a matching row. Each case names its seed; {@code
 * -Dtarn.schemaSeed=N} runs that seed in every case.
 */
class SchemaEvolutionModelTest {

    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {new BigIntType(false), new IntType(), new VarCharType(4)},
                    new String[] {"k", "a", "b"});

    @TempDir java.nio.file.Path dir;

    private Random random;
    private int names;

    /** The default of each column added with one, by field id, as {@link EvolvingTable#text}. */
    private final Map<Integer, String> defaults = new HashMap<>();

    @ParameterizedTest(name = "primary key {0}, seed {1}")
    @CsvSource({"false, 1", "false, 2", "true, 3", "true, 4"})
    void readsEqualTheModelAfterEveryStep(boolean primaryKey, long seed) throws Exception {
        seed = Long.getLong("tarn.schemaSeed", seed);
        random = new Random(seed);
        EvolvingTable t = new EvolvingTable(dir, TYPE, primaryKey ? List.of("k") : List.of());
        // Rows by key (primary key) or by insertion; each row's values as text by field id.
        Map<Long, Map<Integer, String>> model = new LinkedHashMap<>();
        long nextKey = 0;
        for (int step = 0; step < 25; step++) {
            if (step > 0) {
                List<SchemaChange> changes = randomChanges(t.schema());
                t.evolve(changes);
            }
            List<RowData> rows = new ArrayList<>();
            for (int i = 0; i < 1 + random.nextInt(6); i++) {
                long key = primaryKey ? random.nextInt(12) : nextKey++;
                Map<Integer, String> byId = new HashMap<>();
                rows.add(randomRow(t.schema(), key, byId));
                model.put(key, byId);
            }
            t.write(rows);
            if (random.nextInt(4) == 0) {
                t.compact();
            }
            List<List<String>> expected = expected(t.schema(), model);
            assertThat(t.read(null))
                    .as("seed %d, step %d, schema %s", seed, step, t.schema())
                    .isEqualTo(expected);
            if (step % 6 == 5 || step == 24) {
                assertThat(followFromTheFirstSnapshot(t, primaryKey))
                        .as("streaming read, seed %d, step %d, schema %s", seed, step, t.schema())
                        .isEqualTo(expected);
            }
            checkPruning(t, expected, random.nextInt(t.schema().fields().size()), seed, step);
            // And on a column with a default, which files written before it hold in every row.
            List<Integer> withDefaults = new ArrayList<>();
            for (int i = 0; i < t.schema().fields().size(); i++) {
                if (defaults.containsKey(t.schema().fields().get(i).id())) {
                    withDefaults.add(i);
                }
            }
            if (!withDefaults.isEmpty()) {
                int column = withDefaults.get(random.nextInt(withDefaults.size()));
                checkPruning(t, expected, column, seed, step);
            }
        }
    }

    /**
     * What a streaming read from the first snapshot has seen once it reached the latest: the
     * changes of every snapshot, read through the current schema, applied by key (a primary-key
     * table's new versions replace the old) or collected (an append table's new rows).
     */
    private static List<List<String>> followFromTheFirstSnapshot(
            EvolvingTable t, boolean primaryKey) throws Exception {
        StreamScan scan = t.table().newStreamScan(null);
        long latest = TableInternals.context(t.table()).snapshotManager().latestId().orElseThrow();
        RowType type = t.schema().rowType();
        int key = t.schema().fieldIndex("k");
        Map<String, List<String>> byKey = new LinkedHashMap<>();
        List<List<String>> appended = new ArrayList<>();
        for (long id = 1; id <= latest; id++) {
            for (Split split : scan.changes(id).orElseThrow().splits()) {
                try (TableRead.SplitReader reader = t.table().newRead().open(split)) {
                    for (RowData r = reader.next(); r != null; r = reader.next()) {
                        List<String> row = new ArrayList<>();
                        for (int i = 0; i < type.getFieldCount(); i++) {
                            row.add(
                                    EvolvingTable.text(
                                            RowData.createFieldGetter(type.getTypeAt(i), i)
                                                    .getFieldOrNull(r)));
                        }
                        boolean retract =
                                r.getRowKind() == RowKind.DELETE
                                        || r.getRowKind() == RowKind.UPDATE_BEFORE;
                        if (!primaryKey) {
                            appended.add(row);
                        } else if (retract) {
                            byKey.remove(row.get(key));
                        } else {
                            byKey.put(row.get(key), row);
                        }
                    }
                }
            }
        }
        List<List<String>> rows = new ArrayList<>(primaryKey ? byKey.values() : appended);
        rows.sort(EvolvingTable::compare);
        return rows;
    }

    /**
     * A filter on a random column (equal to a value some row has, or IS NULL) keeps every file with
     * a matching row: the read of what it plans holds every row of the model that matches.
     */
    private void checkPruning(
            EvolvingTable t, List<List<String>> expected, int column, long seed, int step)
            throws Exception {
        TableSchema schema = t.schema();
        DataField f = schema.fields().get(column);
        String value = defaults.get(f.id());
        if (value == null || random.nextBoolean()) {
            value = expected.get(random.nextInt(expected.size())).get(column);
        }
        Predicate filter;
        if (value == null) {
            filter =
                    new Predicate.Leaf(Predicate.Op.IS_NULL, column, f.name(), f.type(), List.of());
        } else {
            Object literal =
                    switch (f.type().getTypeRoot()) {
                        case INTEGER -> Integer.parseInt(value);
                        case BIGINT -> Long.parseLong(value);
                        case VARCHAR -> StringData.fromString(value);
                        default -> null;
                    };
            if (literal == null) {
                return;
            }
            filter =
                    new Predicate.Leaf(
                            Predicate.Op.EQ, column, f.name(), f.type(), List.of(literal));
        }
        String wanted = value;
        List<List<String>> matching =
                expected.stream()
                        .filter(r -> java.util.Objects.equals(r.get(column), wanted))
                        .toList();
        assertThat(t.read(filter))
                .as("seed %d, step %d, filter %s, schema %s", seed, step, filter, schema)
                .containsAll(matching);
    }

    private List<List<String>> expected(TableSchema schema, Map<Long, Map<Integer, String>> model) {
        List<List<String>> rows = new ArrayList<>();
        for (Map<Integer, String> byId : model.values()) {
            List<String> row = new ArrayList<>();
            for (DataField f : schema.fields()) {
                row.add(byId.containsKey(f.id()) ? byId.get(f.id()) : defaults.get(f.id()));
            }
            rows.add(row);
        }
        rows.sort(EvolvingTable::compare);
        return rows;
    }

    private RowData randomRow(TableSchema schema, long key, Map<Integer, String> byId) {
        GenericRowData row = new GenericRowData(schema.fields().size());
        for (int i = 0; i < schema.fields().size(); i++) {
            DataField f = schema.fields().get(i);
            Object value =
                    f.name().equals("k")
                            ? (Object) key
                            : f.type().isNullable() && random.nextInt(5) == 0
                                    ? null
                                    : value(f.type());
            row.setField(i, value);
            byId.put(f.id(), EvolvingTable.text(value));
        }
        return row;
    }

    private Object value(LogicalType type) {
        int n = random.nextInt(2000) - 1000;
        return switch (type.getTypeRoot()) {
            case INTEGER -> n;
            case BIGINT -> n * 10_000_000_000L;
            case FLOAT -> n / 4f;
            case DOUBLE -> n / 8.0;
            case DECIMAL -> {
                DecimalType d = (DecimalType) type;
                yield DecimalData.fromBigDecimal(
                        BigDecimal.valueOf(n, 2).setScale(d.getScale()),
                        d.getPrecision(),
                        d.getScale());
            }
            case VARCHAR -> StringData.fromString(Integer.toString(Math.abs(n) % 1000));
            default -> throw new IllegalStateException(type.toString());
        };
    }

    /** One to three allowed changes of the non-key columns of {@code schema}. */
    private List<SchemaChange> randomChanges(TableSchema schema) {
        List<SchemaChange> changes = new ArrayList<>();
        List<String> columns = new ArrayList<>(schema.fieldNames());
        Map<String, LogicalType> types = new HashMap<>();
        schema.fields().forEach(f -> types.put(f.name(), f.type()));
        int nextId = schema.highestFieldId() + 1;
        for (int i = 0; i < 1 + random.nextInt(3); i++) {
            List<String> others = new ArrayList<>(columns);
            others.remove("k");
            String column = others.isEmpty() ? null : others.get(random.nextInt(others.size()));
            switch (column == null ? 0 : random.nextInt(7)) {
                case 0 -> {
                    String name = "c" + names++;
                    int kind = random.nextInt(4);
                    LogicalType type =
                            List.<LogicalType>of(
                                            new IntType(),
                                            new FloatType(),
                                            new DecimalType(6, 2),
                                            new VarCharType(3))
                                    .get(kind);
                    // Half of the new columns have a default; of those, half are NOT NULL.
                    String defaultValue = null;
                    if (random.nextBoolean()) {
                        defaultValue = List.of("7", "0.25", "1.50", "ab").get(kind);
                        defaults.put(nextId, List.of("7", "0.25", "1.5", "ab").get(kind));
                        type = type.copy(random.nextBoolean());
                    }
                    nextId++;
                    Position at =
                            switch (random.nextInt(3)) {
                                case 0 -> null;
                                case 1 -> Position.FIRST;
                                default ->
                                        Position.after(columns.get(random.nextInt(columns.size())));
                            };
                    changes.add(new AddColumn(name, type, null, at, defaultValue));
                    int index =
                            at == null
                                    ? columns.size()
                                    : at.after() == null ? 0 : columns.indexOf(at.after()) + 1;
                    columns.add(index, name);
                    types.put(name, type);
                }
                case 1 -> {
                    changes.add(new DropColumn(column));
                    columns.remove(column);
                }
                case 2 -> {
                    String name = "r" + names++;
                    changes.add(new RenameColumn(column, name));
                    columns.set(columns.indexOf(column), name);
                    types.put(name, types.remove(column));
                }
                case 3 -> {
                    columns.remove(column);
                    String after =
                            random.nextBoolean()
                                    ? null
                                    : columns.get(random.nextInt(columns.size()));
                    changes.add(
                            new MoveColumn(
                                    column,
                                    after == null ? Position.FIRST : Position.after(after)));
                    columns.add(after == null ? 0 : columns.indexOf(after) + 1, column);
                }
                case 4 -> {
                    LogicalType wider = wider(types.get(column));
                    if (wider != null) {
                        changes.add(new UpdateColumnType(column, wider));
                        types.put(column, wider);
                    }
                }
                case 5 -> {
                    LogicalType nullable = types.get(column).copy(true);
                    changes.add(new UpdateColumnType(column, nullable));
                    types.put(column, nullable);
                }
                default -> changes.add(new UpdateColumnComment(column, "step " + names));
            }
        }
        return changes;
    }

    private static LogicalType wider(LogicalType type) {
        LogicalType wider = widerType(type);
        return wider == null ? null : wider.copy(type.isNullable());
    }

    private static LogicalType widerType(LogicalType type) {
        return switch (type.getTypeRoot()) {
            case INTEGER -> new BigIntType();
            case FLOAT -> new DoubleType();
            case DECIMAL -> {
                DecimalType d = (DecimalType) type;
                yield d.getPrecision() > 30
                        ? null
                        : new DecimalType(d.getPrecision() + 2, d.getScale() + 1);
            }
            case VARCHAR -> {
                int length = ((VarCharType) type).getLength();
                yield length > 100 ? null : new VarCharType(length + 5);
            }
            default -> null;
        };
    }
}
