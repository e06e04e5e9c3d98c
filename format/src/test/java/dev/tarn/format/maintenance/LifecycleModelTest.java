package dev.tarn.format.maintenance;

import static dev.tarn.format.maintenance.LifecycleTables.assertNoLostOrLeakedFiles;
import static dev.tarn.format.maintenance.LifecycleTables.readSnapshot;
import static dev.tarn.format.maintenance.LifecycleTables.readTag;
import static dev.tarn.format.maintenance.LifecycleTables.snapshotIds;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.maintenance.SnapshotLifecycle.ExpireRequest;
import dev.tarn.format.schema.TableSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.TreeMap;
import org.apache.flink.table.data.RowData;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Random interleavings of commits, full compactions, tags, rollbacks and expirations on an append
 * and a primary-key table, checked after every step against a model (the rows of each snapshot and
 * tag): every snapshot that exists and every tag reads exactly its rows, the snapshots that exist
 * are the ones the model keeps, and no file is lost or leaked.
 */
class LifecycleModelTest {

    @TempDir Path root;

    private static Table create(Path dir, boolean primaryKey) throws Exception {
        Files.createDirectories(dir);
        org.apache.flink.core.fs.Path location = new org.apache.flink.core.fs.Path(dir.toUri());
        if (!primaryKey) {
            return LifecycleTables.create(FileIO.flinkFileSystems(), dir, Map.of());
        }
        return Table.create(
                FileIO.flinkFileSystems(),
                location,
                TestTables.NAME,
                TableSchema.create(
                        notNullId(), List.of(), List.of("id"), Map.of("bucket", "2"), null));
    }

    private static org.apache.flink.table.types.logical.RowType notNullId() {
        return org.apache.flink.table.types.logical.RowType.of(
                new org.apache.flink.table.types.logical.LogicalType[] {
                    new org.apache.flink.table.types.logical.BigIntType(false),
                    org.apache.flink.table.types.logical.VarCharType.STRING_TYPE
                },
                new String[] {"id", "v"});
    }

    @ParameterizedTest(name = "seed {0}, primary key {1}")
    @CsvSource({"1, false", "2, false", "3, true", "4, true"})
    void everySnapshotAndTagReadsWhatTheModelSays(long seed, boolean primaryKey) throws Exception {
        Path dir = root.resolve("t" + seed);
        Table table = create(dir, primaryKey);
        Random random = new Random(seed);
        TreeMap<Long, TreeMap<Long, String>> snapshots = new TreeMap<>();
        Map<String, Long> tags = new TreeMap<>();
        Map<String, TreeMap<Long, String>> tagRows = new TreeMap<>();
        TreeMap<Long, String> current = new TreeMap<>();
        int tagCount = 0;
        for (int step = 0; step < 45; step++) {
            int op = random.nextInt(100);
            if (op < 45 || snapshots.isEmpty()) {
                List<RowData> rows = new ArrayList<>();
                TreeMap<Long, String> next = new TreeMap<>(current);
                for (int i = 0; i < 1 + random.nextInt(4); i++) {
                    // Primary keys repeat, so upserts replace rows; append ids never repeat.
                    long id = primaryKey ? random.nextInt(12) : step * 10L + i;
                    String v = "s" + step + "r" + i;
                    rows.add(TestTables.row(id, v));
                    if (primaryKey || !next.containsKey(id)) {
                        next.put(id, v);
                    }
                }
                long before = TableInternals.context(table).snapshotManager().latestId().orElse(0);
                long id = TestTables.append(table, step, rows);
                current = next;
                // A primary-key commit may add a COMPACT snapshot after its APPEND one.
                for (long s = before + 1; s <= id; s++) {
                    snapshots.put(s, current);
                }
            } else if (op < 60) {
                OptionalLong id =
                        FullCompaction.run(TableInternals.context(table)).get().snapshotId();
                if (id.isPresent()) {
                    snapshots.put(id.getAsLong(), current);
                }
            } else if (op < 70) {
                List<Long> ids = new ArrayList<>(snapshots.keySet());
                long id = ids.get(random.nextInt(ids.size()));
                String name = "tag" + tagCount++;
                SnapshotLifecycle.createTag(
                        TableInternals.context(table),
                        name,
                        OptionalLong.of(id),
                        null,
                        System.currentTimeMillis());
                tags.put(name, id);
                tagRows.put(name, snapshots.get(id));
            } else if (op < 75 && !tags.isEmpty()) {
                String name = new ArrayList<>(tags.keySet()).get(random.nextInt(tags.size()));
                SnapshotLifecycle.deleteTag(TableInternals.context(table), name);
                tags.remove(name);
                tagRows.remove(name);
            } else if (op < 85) {
                long lowest = tags.values().stream().mapToLong(Long::longValue).max().orElse(0);
                List<Long> targets =
                        snapshots.keySet().stream().filter(id -> id >= lowest).toList();
                List<String> tagTargets =
                        tags.entrySet().stream()
                                .filter(e -> e.getValue() == lowest)
                                .map(Map.Entry::getKey)
                                .toList();
                if (!tagTargets.isEmpty() && random.nextBoolean()) {
                    String name = tagTargets.get(0);
                    SnapshotLifecycle.rollbackToTag(TableInternals.context(table), name);
                    long id = tags.get(name);
                    if (snapshots.containsKey(id)) {
                        snapshots.keySet().removeIf(s -> s > id);
                    } else {
                        // Expired: restored from the tag, the only snapshot left.
                        snapshots.clear();
                        snapshots.put(id, tagRows.get(name));
                    }
                    current = tagRows.get(name);
                } else if (!targets.isEmpty()) {
                    long id = targets.get(random.nextInt(targets.size()));
                    SnapshotLifecycle.rollbackTo(TableInternals.context(table), id);
                    snapshots.keySet().removeIf(s -> s > id);
                    current = snapshots.get(id);
                }
            } else {
                int min = 1 + random.nextInt(3);
                ExpireRequest request =
                        new ExpireRequest(
                                min + random.nextInt(4),
                                min,
                                Long.MAX_VALUE,
                                1 + random.nextInt(5));
                SnapshotLifecycle.expire(
                        TableInternals.context(table), request, System.currentTimeMillis());
                long earliest =
                        TableInternals.context(table).snapshotManager().earliestId().getAsLong();
                snapshots.headMap(earliest).clear();
            }
            check(table, dir, snapshots, tagRows, step);
        }
    }

    private static void check(
            Table table,
            Path dir,
            TreeMap<Long, TreeMap<Long, String>> snapshots,
            Map<String, TreeMap<Long, String>> tagRows,
            int step) {
        assertThat(snapshotIds(table))
                .as("step %d", step)
                .containsExactlyElementsOf(snapshots.keySet());
        for (Map.Entry<Long, TreeMap<Long, String>> s : snapshots.entrySet()) {
            assertThat(readSnapshot(table, s.getKey()))
                    .as("step %d, snapshot %d", step, s.getKey())
                    .isEqualTo(text(s.getValue()));
        }
        for (Map.Entry<String, TreeMap<Long, String>> t : tagRows.entrySet()) {
            assertThat(readTag(table, t.getKey()))
                    .as("step %d, tag %s", step, t.getKey())
                    .isEqualTo(text(t.getValue()));
        }
        assertNoLostOrLeakedFiles(table, dir);
    }

    private static List<String> text(TreeMap<Long, String> rows) {
        List<String> text = new ArrayList<>();
        rows.forEach((k, v) -> text.add(k + "," + v));
        text.sort(null);
        return text;
    }
}
