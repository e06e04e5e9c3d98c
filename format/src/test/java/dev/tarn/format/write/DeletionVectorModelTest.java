package dev.tarn.format.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.deletion.DeletionVector;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.lsm.KeyValueSchema;
import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.parquet.ParquetDataReader;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.table.DataFileOpener;
import dev.tarn.format.table.TableContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.BiFunction;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The model test of deletion vectors (SPEC.md, "Deletion vectors"): random upserts, deletes, full
 * compactions, writer restarts and commits, with each merge engine, against a {@link TreeMap}.
 * After every commit, the latest snapshot read file by file, each file with its vector and without
 * merging, holds each key at most once and equals the model.
 */
class DeletionVectorModelTest {

    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {new BigIntType(false), new BigIntType(), new BigIntType()},
                    new String[] {"k", "a", "b"});

    @TempDir java.nio.file.Path dir;

    /** How one engine merges a change into a key's row (null: none), and whether it deletes. */
    private record Engine(
            Map<String, String> options,
            BiFunction<long[], Long[], long[]> merge,
            boolean deletes) {}

    private static Engine engine(String name) {
        return switch (name) {
            case "deduplicate", "deduplicate-lookup", "deduplicate-input" ->
                    new Engine(
                            name.equals("deduplicate")
                                    ? Map.of()
                                    : Map.of(
                                            "changelog-producer",
                                            name.substring("deduplicate-".length())),
                            (old, change) -> new long[] {change[0], change[1]},
                            true);
            case "partial-update" ->
                    new Engine(
                            Map.of("merge-engine", "partial-update"),
                            (old, change) ->
                                    new long[] {
                                        change[0] != null ? change[0] : old == null ? -1 : old[0],
                                        change[1] != null ? change[1] : old == null ? -1 : old[1]
                                    },
                            false);
            case "aggregation" ->
                    new Engine(
                            Map.of(
                                    "merge-engine", "aggregation",
                                    "fields.a.aggregate-function", "sum",
                                    "fields.b.aggregate-function", "max"),
                            (old, change) ->
                                    old == null
                                            ? new long[] {change[0], change[1]}
                                            : new long[] {
                                                old[0] + change[0], Math.max(old[1], change[1])
                                            },
                            false);
            case "first-row" ->
                    new Engine(
                            Map.of("merge-engine", "first-row"),
                            (old, change) -> old != null ? old : new long[] {change[0], change[1]},
                            false);
            default -> throw new IllegalArgumentException(name);
        };
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "deduplicate",
                "deduplicate-lookup",
                "deduplicate-input",
                "partial-update",
                "aggregation",
                "first-row"
            })
    void everySnapshotReadFileByFileEqualsTheModel(String engineName) throws Exception {
        Engine engine = engine(engineName);
        Map<String, String> options = new HashMap<>(engine.options());
        options.put("bucket", "2");
        options.put("deletion-vectors.enabled", "true");
        options.put("write-buffer-size", "64 kb");
        options.put("num-sorted-run.compaction-trigger", "3");
        Table table =
                Table.create(
                        FileIO.flinkFileSystems(),
                        new Path(dir.toUri()),
                        "db.t",
                        TableSchema.create(TYPE, List.of(), List.of("k"), options, null));
        TreeMap<Long, long[]> model = new TreeMap<>();
        Random random = new Random(engineName.hashCode());
        long checkpoint = 0;
        for (int round = 0; round < 4; round++) {
            TableCommit commit = table.newCommit("writer");
            TableWrite write = table.newWrite();
            if (round % 2 == 1) {
                write.deferRestore(); // As a restarted job: flushes before it knows its files.
            }
            try (write) {
                for (int c = 0; c < 4; c++) {
                    int changes = 100 + random.nextInt(1500);
                    for (int i = 0; i < changes; i++) {
                        long k = random.nextInt(400);
                        if (engine.deletes() && random.nextInt(5) == 0) {
                            write.write(GenericRowData.ofKind(RowKind.DELETE, k, 0L, 0L));
                            model.remove(k);
                            continue;
                        }
                        Long a = random.nextInt(4) == 0 ? null : (long) random.nextInt(100);
                        Long b = random.nextInt(4) == 0 ? null : (long) random.nextInt(100);
                        if (!engineName.equals("partial-update")) {
                            a = a == null ? 1L : a;
                            b = b == null ? 2L : b;
                        }
                        write.write(GenericRowData.of(k, a, b));
                        model.put(k, engine.merge().apply(model.get(k), new Long[] {a, b}));
                    }
                    // A deferred writer knows its files from its first commit on.
                    if (random.nextInt(4) == 0 && (round % 2 == 0 || c > 0)) {
                        for (int bucket = 0; bucket < 2; bucket++) {
                            write.compactFully(Partition.EMPTY, bucket);
                        }
                    }
                    commit.commit(CommitRequest.of(++checkpoint, write.prepareCommit(false)));
                    assertThat(readFileByFile(table))
                            .as("round %d, commit %d", round, checkpoint)
                            .isEqualTo(expected(model));
                }
            }
            commit.close();
        }
    }

    @Test
    void aWritersDeletionsInAFileACompactionJobReplacedMeanwhileMoveToItsOutput() throws Exception {
        Table table =
                Table.create(
                        FileIO.flinkFileSystems(),
                        new Path(dir.toUri()),
                        "db.t",
                        TableSchema.create(
                                TYPE,
                                List.of(),
                                List.of("k"),
                                Map.of("bucket", "1", "deletion-vectors.enabled", "true"),
                                null));
        TreeMap<Long, long[]> model = new TreeMap<>();
        try (TableCommit commit = table.newCommit("writer");
                TableWrite write = table.newWrite()) {
            for (long k = 0; k < 100; k++) {
                write.write(GenericRowData.of(k, k, 0L));
                model.put(k, new long[] {k, 0});
            }
            commit.commit(CommitRequest.of(1, write.prepareCommit(false)));
            for (long k = 0; k < 100; k += 10) {
                write.write(GenericRowData.of(k, k, 1L));
                model.put(k, new long[] {k, 1});
            }
            List<CommitMessage> marks = write.prepareCommit(false);
            assertThat(marks.get(0).vectors())
                    .as("the flush deleted rows of the first file")
                    .hasSize(1);

            // A compaction job compacts the bucket before the writer's commit lands.
            try (TableCommit compactor = table.newCommit("compactor");
                    TableWrite job = table.newWrite()) {
                job.compactFully(Partition.EMPTY, 0);
                compactor.commit(CommitRequest.of(1, job.prepareCommit(true)));
            }
            assertThat(
                            TableInternals.context(table)
                                    .snapshotReader()
                                    .latest()
                                    .get()
                                    .commit()
                                    .kind())
                    .isEqualTo(Snapshot.CommitKind.COMPACT);

            commit.commit(CommitRequest.of(2, marks));
        }
        assertThat(readFileByFile(table)).isEqualTo(expected(model));
    }

    private static Map<Long, List<Long>> expected(TreeMap<Long, long[]> model) {
        Map<Long, List<Long>> rows = new TreeMap<>();
        model.forEach(
                (k, v) ->
                        rows.put(
                                k,
                                Arrays.asList(v[0] == -1 ? null : v[0], v[1] == -1 ? null : v[1])));
        return rows;
    }

    /**
     * The latest snapshot's rows, each live file read on its own with its vector; fails on a key
     * that two rows hold.
     */
    static Map<Long, List<Long>> readFileByFile(Table table) throws Exception {
        TableContext context = TableInternals.context(table);
        Snapshot latest = context.snapshotReader().latest().orElseThrow();
        Map<ManifestEntry.FileId, DeletionFile> vectors = context.snapshotReader().vectors(latest);
        RowType fileType = KeyValueSchema.of(context.schema()).fileType();
        Map<Long, List<Long>> rows = new TreeMap<>();
        List<String> where = new ArrayList<>();
        for (ManifestEntry e : context.snapshotReader().liveFiles(latest).values()) {
            DeletionFile place = vectors.get(e.fileId());
            DeletionVector vector =
                    place == null ? null : context.indexFiles().read(e.file().fileName(), place);
            DataFileOpener opener =
                    new DataFileOpener(
                            context,
                            context.bucketPath(e.partition(), e.bucket()),
                            fileType,
                            null,
                            "test");
            try (ParquetDataReader reader = opener.open(e.file(), TYPE).withDeletions(vector)) {
                for (RowData r = reader.next(); r != null; r = reader.next()) {
                    long k = r.getLong(0);
                    List<Long> row =
                            Arrays.asList(
                                    r.isNullAt(1) ? null : r.getLong(1),
                                    r.isNullAt(2) ? null : r.getLong(2));
                    assertThat(rows.put(k, row))
                            .as(
                                    "key %d at %d of %s holds a row already (%s)",
                                    k, reader.position(), e.file().fileName(), where)
                            .isNull();
                }
            }
            where.add(e.file().fileName() + "@L" + e.file().level());
        }
        return rows;
    }
}
