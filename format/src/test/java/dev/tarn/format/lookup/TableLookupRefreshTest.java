package dev.tarn.format.lookup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.Table;
import dev.tarn.format.TestTables;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.maintenance.SnapshotLifecycle.ExpireRequest;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.write.TableWrite;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link TableLookup#refresh} against a fresh {@link TableLookup#open} and a batch read, for every
 * merge engine, with and without deletion vectors and with the {@code lookup} changelog producer:
 * random upserts and deletes, full compactions and an overwrite, looked up by key and by another
 * column. And the snapshots a lookup cannot apply: expired (it reloads), rolled back, dropped.
 */
class TableLookupRefreshTest {

    /** {@code (k BIGINT NOT NULL, a BIGINT, b STRING)}, keyed by {@code k}. */
    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {
                        new BigIntType(false), new BigIntType(), VarCharType.STRING_TYPE
                    },
                    new String[] {"k", "a", "b"});

    private static final String[] BS = {"x", "y", "z", null};

    @TempDir java.nio.file.Path dir;

    private Table create(String name, Map<String, String> options) {
        Map<String, String> all = new HashMap<>(options);
        all.put("bucket", "2");
        return Table.create(
                FileIO.flinkFileSystems(),
                new Path(dir.resolve(name).toUri()),
                "db." + name,
                TableSchema.create(TYPE, List.of(), List.of("k"), all, null));
    }

    static Stream<Arguments> tables() {
        List<Arguments> all = new ArrayList<>();
        Map<String, Map<String, String>> engines =
                Map.of(
                        "deduplicate", Map.of(),
                        "partial-update", Map.of("merge-engine", "partial-update"),
                        "aggregation",
                                Map.of(
                                        "merge-engine", "aggregation",
                                        "fields.a.aggregate-function", "sum",
                                        "fields.b.aggregate-function", "last_non_null_value"),
                        "first-row", Map.of("merge-engine", "first-row"));
        for (String engine : List.of("deduplicate", "partial-update", "aggregation", "first-row")) {
            all.add(Arguments.of(engine, engines.get(engine)));
            Map<String, String> vectors = new HashMap<>(engines.get(engine));
            vectors.put("deletion-vectors.enabled", "true");
            all.add(Arguments.of(engine + "+vectors", vectors));
            Map<String, String> lookup = new HashMap<>(engines.get(engine));
            lookup.put("changelog-producer", "lookup");
            all.add(Arguments.of(engine + "+lookup", lookup));
        }
        return all.stream();
    }

    private static GenericRowData row(RowKind kind, long k, Long a, String b) {
        GenericRowData row = GenericRowData.of(k, a, b == null ? null : StringData.fromString(b));
        row.setRowKind(kind);
        return row;
    }

    private static List<RowData> randomRows(Random random, boolean deletes) {
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            boolean delete = deletes && random.nextInt(5) == 0;
            rows.add(
                    row(
                            delete ? RowKind.DELETE : RowKind.INSERT,
                            random.nextInt(30),
                            random.nextInt(4) == 0 ? null : (long) random.nextInt(10),
                            BS[random.nextInt(BS.length)]));
        }
        return rows;
    }

    private static List<GenericRowData> keysOf(String column) {
        List<GenericRowData> keys = new ArrayList<>();
        if (column.equals("k")) {
            for (long k = 0; k < 32; k++) {
                keys.add(GenericRowData.of(k));
            }
        } else {
            for (String b : BS) {
                keys.add(GenericRowData.of(b == null ? null : StringData.fromString(b)));
            }
            keys.add(GenericRowData.of(StringData.fromString("w")));
        }
        return keys;
    }

    private LookupSpec spec(String column) {
        return new LookupSpec(List.of(column), new int[] {0, 1, 2}, null, 0, 1, dir);
    }

    /** Checks {@code lookup} against a fresh lookup and a batch read of the latest snapshot. */
    private static void checkSameAsFresh(Table table, TableLookup lookup, String column)
            throws IOException {
        LookupSpec spec = new LookupSpec(List.of(column), new int[] {0, 1, 2}, null, 0, 1, null);
        List<GenericRowData> keys = keysOf(column);
        Map<String, List<String>> expected =
                LookupChecks.expected(table, LookupChecks.batchRows(table), spec, r -> true, keys);
        try (TableLookup fresh = table.newLookup(spec)) {
            fresh.open();
            assertThat(LookupChecks.describe(LookupChecks.actual(table, fresh, spec, keys)))
                    .as("a fresh lookup by %s", column)
                    .isEqualTo(LookupChecks.describe(expected));
        }
        assertThat(LookupChecks.describe(LookupChecks.actual(table, lookup, spec, keys)))
                .as("the refreshed lookup by %s", column)
                .isEqualTo(LookupChecks.describe(expected));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tables")
    void refreshEqualsAFreshOpen(String name, Map<String, String> options) throws IOException {
        Table table = create(name.replace('+', '-'), options);
        // Engines that fold versions, without vectors or a changelog, store no changes of rows.
        boolean reloads = List.of("partial-update", "aggregation", "first-row").contains(name);
        boolean deletes = table.config().lsm().mergeEngine().supportsDelete();
        Random random = new Random(name.hashCode());
        long identifier = 0;
        append(table, ++identifier, randomRows(random, deletes));
        try (TableLookup byKey = table.newLookup(spec("k"));
                TableLookup byB = table.newLookup(spec("b"))) {
            byKey.open();
            byB.open();
            for (int round = 0; round < 8; round++) {
                append(table, ++identifier, randomRows(random, deletes));
                if (round == 3) {
                    table.maintenance().compactFully();
                }
                if (round == 5) {
                    overwrite(table, ++identifier, randomRows(random, false).subList(0, 10));
                }
                long latest = table.metadata().latestSnapshotId().getAsLong();
                long reloadsBefore = byKey.bucketReloads();
                long appliedBefore = byKey.snapshotId();
                assertThat(byKey.refresh()).isEqualTo(latest);
                if (round != 5 && latest > appliedBefore) {
                    // Only an overwrite, or an engine whose changes are not rows, reads anew.
                    assertThat(byKey.bucketReloads() > reloadsBefore)
                            .as("buckets read anew after round %d", round)
                            .isEqualTo(reloads);
                }
                assertThat(byB.refresh()).isEqualTo(latest);
                checkSameAsFresh(table, byKey, "k");
                checkSameAsFresh(table, byB, "b");
            }
            assertThat(byKey.memoryBytes()).isPositive();
            assertThat(byKey.diskBytes()).isZero();
        }
    }

    /** Writes and commits {@code rows}; a first-row table's commit may hold nothing. */
    private static void append(Table table, long identifier, List<RowData> rows) {
        TestTables.commit(
                table, "user", CommitRequest.of(identifier, TestTables.write(table, rows)));
    }

    private static void overwrite(Table table, long identifier, List<RowData> rows)
            throws IOException {
        try (TableWrite write = table.newWrite(true)) {
            for (RowData row : rows) {
                write.write(row);
            }
            TestTables.commit(
                    table,
                    "user",
                    CommitRequest.of(identifier, write.prepareCommit()).overwriting(p -> true));
        }
    }

    @Test
    void anExpiredSnapshotMakesItReload() throws IOException {
        Table table = create("expired", Map.of());
        Random random = new Random(7);
        TestTables.append(table, 1, randomRows(random, true));
        try (TableLookup lookup = table.newLookup(spec("b"))) {
            lookup.open();
            for (int i = 2; i <= 5; i++) {
                TestTables.append(table, i, randomRows(random, true));
            }
            table.maintenance()
                    .expireSnapshots(new ExpireRequest(1, 1, Long.MAX_VALUE, 100), Long.MAX_VALUE);
            long latest = table.metadata().latestSnapshotId().getAsLong();
            assertThat(table.metadata().earliestSnapshotId().getAsLong()).isEqualTo(latest);
            assertThat(lookup.refresh()).isEqualTo(latest);
            checkSameAsFresh(table, lookup, "b");
        }
    }

    @Test
    void aRollbackBelowTheAppliedSnapshotFailsNamingTableAndIds() throws IOException {
        Table table = create("rolled", Map.of());
        Random random = new Random(8);
        for (int i = 1; i <= 3; i++) {
            TestTables.append(table, i, randomRows(random, true));
        }
        try (TableLookup lookup = table.newLookup(spec("k"))) {
            lookup.open();
            table.maintenance().rollbackTo(2);
            assertThatThrownBy(lookup::refresh)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage(
                            "Table db.rolled was rolled back under a lookup join: the join applied"
                                    + " snapshot 3, the table's latest is now 2. Restart the join"
                                    + " to read the table as it is");
        }
        try (TableLookup lookup = table.newLookup(spec("k"))) {
            lookup.open();
            table.maintenance().rollbackTo(1);
            TestTables.append(table, 10, randomRows(random, true));
            TestTables.append(table, 11, randomRows(random, true));
            assertThatThrownBy(lookup::refresh)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage(
                            "Table db.rolled was rolled back under a lookup join: the join applied"
                                    + " snapshot 2, the table's latest is now 3 and snapshot 2 was"
                                    + " committed anew. Restart the join to read the table as it"
                                    + " is");
        }
    }

    @Test
    void aDroppedTableFailsNamingIt() throws IOException {
        Table table = create("dropped", Map.of());
        TestTables.append(table, 1, randomRows(new Random(9), true));
        try (TableLookup lookup = table.newLookup(spec("k"))) {
            lookup.open();
            try (Stream<java.nio.file.Path> files =
                    java.nio.file.Files.walk(dir.resolve("dropped"))) {
                files.sorted(Comparator.reverseOrder())
                        .map(java.nio.file.Path::toFile)
                        .forEach(java.io.File::delete);
            }
            assertThatThrownBy(lookup::refresh)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith(
                            "Table db.dropped was dropped or renamed under a lookup join that had"
                                    + " applied its snapshot 1 (its schema file is gone from ");
        }
    }

    @Test
    void getsWhileRefreshesApplyAndReloadSeeEveryKeyOnce() throws Exception {
        Table table = create("concurrent", Map.of());
        List<RowData> all = new ArrayList<>();
        for (long k = 0; k < 100; k++) {
            all.add(row(RowKind.INSERT, k, 0L, "x"));
        }
        append(table, 1, all);
        try (TableLookup lookup = table.newLookup(spec("k"))) {
            lookup.open();
            java.util.concurrent.atomic.AtomicBoolean done =
                    new java.util.concurrent.atomic.AtomicBoolean();
            java.util.concurrent.atomic.AtomicReference<String> failure =
                    new java.util.concurrent.atomic.AtomicReference<>();
            java.util.concurrent.atomic.AtomicLong gets =
                    new java.util.concurrent.atomic.AtomicLong();
            List<Thread> readers = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                Thread reader =
                        new Thread(
                                () -> {
                                    Random random = new Random();
                                    while (!done.get() && failure.get() == null) {
                                        long k = random.nextInt(100);
                                        try {
                                            List<RowData> rows = lookup.get(GenericRowData.of(k));
                                            if (rows.size() != 1 || rows.get(0).getLong(0) != k) {
                                                failure.set("key " + k + ": " + rows);
                                            }
                                            gets.incrementAndGet();
                                        } catch (IOException | RuntimeException e) {
                                            failure.set("key " + k + ": " + e);
                                        }
                                    }
                                });
                reader.start();
                readers.add(reader);
            }
            for (int round = 1; round <= 6; round++) {
                List<RowData> next = new ArrayList<>();
                for (RowData r : all) {
                    next.add(row(RowKind.INSERT, r.getLong(0), (long) round, "x"));
                }
                if (round % 2 == 0) {
                    overwrite(table, 10 + round, next);
                } else {
                    append(table, 10 + round, next);
                }
                lookup.refresh();
            }
            done.set(true);
            for (Thread reader : readers) {
                reader.join();
            }
            assertThat(failure.get()).isNull();
            assertThat(gets.get()).isPositive();
            assertThat(lookup.get(GenericRowData.of(5L)).get(0).getLong(1)).isEqualTo(6L);
        }
    }
}
