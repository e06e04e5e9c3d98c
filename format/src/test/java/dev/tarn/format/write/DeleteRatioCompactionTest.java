package dev.tarn.format.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.table.TableContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code compaction.delete-ratio-threshold} on a primary-key table with deletion vectors: a writer
 * rewrites a file on its own, at its level and without its deleted rows, once its vector deletes at
 * least that share of its rows, and the bucket needs no other compaction.
 */
class DeleteRatioCompactionTest {

    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {new BigIntType(false), new BigIntType(), new BigIntType()},
                    new String[] {"k", "a", "b"});

    @TempDir java.nio.file.Path dir;

    /** A file, as the latest snapshot holds it: level, rows, and rows its vector deletes. */
    private record Live(int level, long rows, long deleted) {}

    private Table create(Map<String, String> extra) {
        Map<String, String> options = new HashMap<>(extra);
        options.put("bucket", "1");
        options.put("deletion-vectors.enabled", "true");
        return Table.create(
                FileIO.flinkFileSystems(),
                new Path(dir.toUri()),
                "db.t",
                TableSchema.create(TYPE, List.of(), List.of("k"), options, null));
    }

    /**
     * Writes keys 0..999, commits, then rewrites keys 0..{@code replaced - 1} and commits at the
     * end of the input (which waits for a running compaction).
     */
    private static TreeMap<Long, long[]> writeThenReplace(Table table, int replaced)
            throws Exception {
        TreeMap<Long, long[]> model = new TreeMap<>();
        try (TableCommit commit = table.newCommit("writer");
                TableWrite write = table.newWrite()) {
            for (long k = 0; k < 1000; k++) {
                write.write(GenericRowData.of(k, k, 0L));
                model.put(k, new long[] {k, 0});
            }
            commit.commit(CommitRequest.of(1, write.prepareCommit(false)));
            for (long k = 0; k < replaced; k++) {
                write.write(GenericRowData.of(k, k, 1L));
                model.put(k, new long[] {k, 1});
            }
            // The flush marks rows of the first file; the rewrite starts after it.
            commit.commit(CommitRequest.of(2, write.prepareCommit(true)));
        }
        return model;
    }

    private static List<Live> liveFiles(Table table) {
        TableContext context = TableInternals.context(table);
        Snapshot latest = context.snapshotReader().latest().orElseThrow();
        Map<ManifestEntry.FileId, DeletionFile> vectors = context.snapshotReader().vectors(latest);
        List<Live> files = new ArrayList<>();
        for (ManifestEntry e : context.snapshotReader().liveFiles(latest).values()) {
            DeletionFile vector = vectors.get(e.fileId());
            files.add(
                    new Live(
                            e.file().level(),
                            e.file().rowCount(),
                            vector == null ? 0 : vector.cardinality()));
        }
        return files;
    }

    private static Map<Long, List<Long>> expected(TreeMap<Long, long[]> model) {
        Map<Long, List<Long>> rows = new TreeMap<>();
        model.forEach((k, v) -> rows.put(k, Arrays.asList(v[0], v[1])));
        return rows;
    }

    @Test
    void aFileWhoseVectorDeletesHalfItsRowsOrMoreIsRewrittenWithoutThem() throws Exception {
        Table table = create(Map.of());
        TreeMap<Long, long[]> model = writeThenReplace(table, 600);

        assertThat(liveFiles(table))
                .as("the first file, 600 of its 1,000 rows deleted, rewritten with the other 400")
                .containsExactlyInAnyOrder(new Live(0, 400, 0), new Live(0, 600, 0));
        assertThat(
                        TableInternals.context(table)
                                .snapshotReader()
                                .latest()
                                .orElseThrow()
                                .commit()
                                .kind())
                .isEqualTo(Snapshot.CommitKind.COMPACT);
        assertThat(DeletionVectorModelTest.readFileByFile(table)).isEqualTo(expected(model));
    }

    @Test
    void aFileBelowTheThresholdKeepsItsVector() throws Exception {
        Table table = create(Map.of("compaction.delete-ratio-threshold", "0.7"));
        TreeMap<Long, long[]> model = writeThenReplace(table, 600);

        assertThat(liveFiles(table))
                .containsExactlyInAnyOrder(new Live(0, 600, 0), new Live(0, 1000, 600));
        assertThat(DeletionVectorModelTest.readFileByFile(table)).isEqualTo(expected(model));
    }

    @Test
    void aWriteOnlyWriterLeavesTheFileToACompactionJob() throws Exception {
        Table table = create(Map.of("write-only", "true"));
        writeThenReplace(table, 900);

        assertThat(liveFiles(table))
                .containsExactlyInAnyOrder(new Live(0, 900, 0), new Live(0, 1000, 900));
    }

    @Test
    void aThresholdOutsideItsRangeIsRefusedWithTheOptionAndTheValue() {
        for (String value : List.of("0", "1.5", "-0.2")) {
            assertThatThrownBy(() -> create(Map.of("compaction.delete-ratio-threshold", value)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(
                            String.format(
                                    "Invalid value '%s' for option"
                                            + " 'compaction.delete-ratio-threshold' of table db.t:"
                                            + " must be above 0 and at most 1",
                                    Double.parseDouble(value)));
        }
        assertThatThrownBy(() -> create(Map.of("compaction.delete-ratio-threshold", "half")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("compaction.delete-ratio-threshold")
                .hasMessageContaining("half");
    }
}
