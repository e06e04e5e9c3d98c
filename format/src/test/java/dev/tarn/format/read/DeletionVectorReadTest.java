package dev.tarn.format.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.deletion.DeletionVector;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.VectorChange;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.schema.SchemaChange;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.table.TableContext;
import dev.tarn.format.write.CommitMessage;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
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

/**
 * Reads of a primary-key table with deletion vectors (SPEC.md, "Reads with vectors"), its vectors
 * made by hand as a writer makes them: the row a change replaces is deleted in its file, a
 * tombstone in its own. A bucket whose files are all vector-maintained is read file by file,
 * without the deleted rows, pruned and filtered by any column; a bucket with a file written before
 * the option was on is merged, each file without its deleted rows.
 */
class DeletionVectorReadTest {

    /** {@code (id BIGINT NOT NULL, a BIGINT, b STRING)}, keyed by {@code id}. */
    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {
                        new BigIntType(false), new BigIntType(), VarCharType.STRING_TYPE
                    },
                    new String[] {"id", "a", "b"});

    /** Vectors kept however many rows they delete: these tests read files with their vectors. */
    private static final Map<String, String> WITH_VECTORS =
            Map.of(
                    "bucket",
                    "1",
                    "deletion-vectors.enabled",
                    "true",
                    "compaction.delete-ratio-threshold",
                    "1");

    @TempDir java.nio.file.Path tempDir;

    private Table table;
    private long commits;

    private Table create(Map<String, String> options) {
        table =
                Table.create(
                        FileIO.flinkFileSystems(),
                        new Path(tempDir.toUri()),
                        "db.users",
                        TableSchema.create(TYPE, List.of(), List.of("id"), options, null));
        return table;
    }

    private TableContext context() {
        return TableInternals.context(table);
    }

    private static GenericRowData row(long id, Long a, String b) {
        return GenericRowData.of(id, a, b == null ? null : StringData.fromString(b));
    }

    private static GenericRowData delete(long id) {
        GenericRowData row = row(id, null, null);
        row.setRowKind(RowKind.DELETE);
        return row;
    }

    /** Writes {@code rows} into one new file (a flush sorts them by key): its message. */
    private CommitMessage write(List<? extends RowData> rows) {
        List<CommitMessage> messages = TestTables.write(table, rows);
        assertThat(messages).hasSize(1);
        assertThat(messages.get(0).newFiles()).hasSize(1);
        assertThat(messages.get(0).deletedFiles()).as("no compaction").isEmpty();
        return messages.get(0);
    }

    private static DataFile file(CommitMessage message) {
        return message.newFiles().get(0);
    }

    /**
     * Commits {@code message} with the vectors a writer would make: for each data file (of any
     * commit) the positions its flush deleted, written to one new index file.
     */
    private void commit(CommitMessage message, Map<DataFile, long[]> deletions) throws IOException {
        Map<String, DeletionVector> vectors = new LinkedHashMap<>();
        deletions.forEach(
                (f, positions) -> vectors.put(f.fileName(), DeletionVector.of(positions)));
        List<VectorChange> changes = new ArrayList<>();
        if (!vectors.isEmpty()) {
            Map<String, DeletionFile> current = currentVectors();
            context()
                    .indexFiles()
                    .write(vectors)
                    .forEach((f, place) -> changes.add(new VectorChange(f, current.get(f), place)));
        }
        TestTables.commit(
                table,
                "writer",
                CommitRequest.of(++commits, List.of(message.withVectors(changes))));
    }

    private Map<String, DeletionFile> currentVectors() {
        Map<String, DeletionFile> current = new HashMap<>();
        context()
                .snapshotReader()
                .latest()
                .ifPresent(
                        s ->
                                context()
                                        .snapshotReader()
                                        .vectors(s)
                                        .forEach((id, v) -> current.put(id.fileName(), v)));
        return current;
    }

    /**
     * Two commits into one bucket: ids 1 to 6 ({@code a} = 10 id), then id 2 with {@code a} 5, id 3
     * with 7, a delete of id 4 and id 7 with 1. The second flush deletes the rows of ids 2, 3 and 4
     * in the first file (positions 1, 2, 3) and its own tombstone of id 4 (position 2).
     */
    private DataFile[] twoCommits() throws IOException {
        List<RowData> first = new ArrayList<>();
        for (long id = 1; id <= 6; id++) {
            first.add(row(id, 10 * id, "v" + id));
        }
        CommitMessage one = write(first);
        commit(one, Map.of());
        CommitMessage two =
                write(List.of(row(2, 5L, "w2"), row(3, 7L, "w3"), delete(4), row(7, 1L, "w7")));
        commit(two, Map.of(file(one), new long[] {1, 2, 3}, file(two), new long[] {2}));
        return new DataFile[] {file(one), file(two)};
    }

    private static final List<String> CURRENT =
            List.of("1,10,v1", "2,5,w2", "3,7,w3", "5,50,v5", "6,60,v6", "7,1,w7");

    @Test
    void aBucketKeptByVectorsIsReadFileByFileWithoutItsDeletedRows() throws IOException {
        create(withSplitTarget("1 b"));
        DataFile[] files = twoCommits();

        List<Split> splits = table.newScan().plan().splits();

        assertThat(splits).hasSize(2);
        assertThat(splits)
                .allSatisfy(s -> assertThat(s.kind()).isEqualTo(Split.Kind.SNAPSHOT_BY_FILE));
        assertThat(splits).extracting(Split::bucket).containsOnly(0);
        assertThat(splits.get(0).vector(files[0]).cardinality()).isEqualTo(3);
        assertThat(splits.get(1).vector(files[1]).cardinality()).isEqualTo(1);
        assertThat(splits).extracting(Split::rowCount).containsExactly(6L - 3, 4L - 1);
        assertThat(read(splits, TYPE, null, r -> true))
                .containsExactlyInAnyOrderElementsOf(CURRENT);
    }

    @Test
    void smallFilesOfABucketKeptByVectorsShareASplit() throws IOException {
        create(WITH_VECTORS);
        twoCommits();

        List<Split> splits = table.newScan().plan().splits();

        assertThat(splits).hasSize(1);
        assertThat(splits.get(0).kind()).isEqualTo(Split.Kind.SNAPSHOT_BY_FILE);
        assertThat(splits.get(0).vectors()).hasSize(2);
        assertThat(TestTables.readAll(table)).containsExactlyInAnyOrderElementsOf(CURRENT);
    }

    /**
     * {@code a >= 15} rules the second file out by its statistics ({@code a} at most 7 there), and
     * keeps the first, whose rows of ids 2 and 3 ({@code a} 20, 30) match it but are deleted: the
     * read returns what a merged read would, ids 5 and 6, projected to {@code (b, a)}.
     */
    @Test
    void aFilterOnAValueColumnSkipsFilesButNeverALiveRowAndColumnsArePruned() throws IOException {
        create(withSplitTarget("1 b"));
        DataFile[] files = twoCommits();
        Predicate atLeast15 =
                new Predicate.Leaf(Predicate.Op.GT_EQ, 1, "a", TYPE.getTypeAt(1), List.of(15L));
        RowType projected =
                RowType.of(
                        new LogicalType[] {VarCharType.STRING_TYPE, new BigIntType()},
                        new String[] {"b", "a"});

        List<Split> splits = table.newScan().withFilter(atLeast15).plan().splits();

        assertThat(splits).hasSize(1);
        assertThat(splits.get(0).files()).containsExactly(files[0]);
        assertThat(read(splits, projected, atLeast15, r -> !r.isNullAt(1) && r.getLong(1) >= 15))
                .containsExactlyInAnyOrder("v5,50", "v6,60");
    }

    /**
     * One file of 20,000 rows ({@code a} = id) in small row groups; a second flush gives id 19,999
     * {@code a} 5. {@code a >= 19_990} reads only the last row groups of the first file, and of
     * them not the deleted row of id 19,999, which a merged read would not return either.
     */
    @Test
    void aFilterOnAValueColumnSkipsRowGroups() throws IOException {
        Map<String, String> options = new HashMap<>(WITH_VECTORS);
        options.put("parquet.block.size", "16 kb");
        create(options);
        List<RowData> rows = new ArrayList<>();
        for (long id = 0; id < 20_000; id++) {
            rows.add(row(id, id, null));
        }
        CommitMessage one = write(rows);
        commit(one, Map.of());
        commit(write(List.of(row(19_999, 5L, "new"))), Map.of(file(one), new long[] {19_999}));
        Predicate atLeast =
                new Predicate.Leaf(Predicate.Op.GT_EQ, 1, "a", TYPE.getTypeAt(1), List.of(19_990L));

        List<Split> splits = table.newScan().withFilter(atLeast).plan().splits();
        List<String> returned = read(splits, TYPE, atLeast, r -> true);

        assertThat(splits).hasSize(1);
        assertThat(returned.size()).as("rows of the row groups read").isLessThan(5_000);
        List<String> expected = new ArrayList<>();
        for (long id = 19_990; id < 19_999; id++) {
            expected.add(id + "," + id + ",null");
        }
        assertThat(read(splits, TYPE, atLeast, r -> r.getLong(1) >= 19_990))
                .containsExactlyElementsOf(expected);
    }

    /**
     * Both files were written before the option was on, so the bucket is merged even after it is
     * turned on; the second holds id 1's aggregated row (10 + 5), whose old row is deleted in the
     * first file. Merged with that vector, id 1 is 15; without it the engine would sum both rows to
     * 25.
     */
    @Test
    void aBucketOfFilesFromBeforeTheOptionIsMergedWithTheVectorsApplied() throws IOException {
        create(
                Map.of(
                        "bucket", "1",
                        "merge-engine", "aggregation",
                        "fields.a.aggregate-function", "sum"));
        CommitMessage one = write(List.of(row(1, 10L, "x"), row(2, 20L, "y")));
        commit(one, Map.of());
        commit(write(List.of(row(1, 15L, "x"))), Map.of(file(one), new long[] {0}));
        setVectors(true);

        List<Split> splits = table.newScan().plan().splits();

        assertThat(splits).hasSize(1);
        assertThat(splits.get(0).kind()).isEqualTo(Split.Kind.SNAPSHOT);
        assertThat(splits.get(0).files()).hasSize(2);
        assertThat(splits.get(0).vector(file(one))).isNotNull();
        assertThat(read(splits, TYPE, null, r -> true))
                .containsExactlyInAnyOrder("1,15,x", "2,20,y");
    }

    /**
     * A bucket with one vector-maintained file and one written while the option was off holds two
     * live rows of id 2: it is merged, so the newer wins.
     */
    @Test
    void aBucketWithAnyFileNotKeptByVectorsIsMerged() throws IOException {
        create(withSplitTarget("1 b"));
        commit(write(List.of(row(1, 10L, "a"), row(2, 20L, "b"))), Map.of());
        setVectors(false);
        commit(write(List.of(row(2, 21L, "c"))), Map.of());

        List<Split> splits = table.newScan().plan().splits();

        assertThat(splits).hasSize(1);
        assertThat(splits.get(0).kind()).isEqualTo(Split.Kind.SNAPSHOT);
        assertThat(read(splits, TYPE, null, r -> true))
                .containsExactlyInAnyOrder("1,10,a", "2,21,c");
    }

    /**
     * Opened to filter rows, a read file by file drops the live rows the filter rules out (id 1,
     * {@code a} 10, in the first file) besides the deleted ones; opened without, it returns them
     * for the engine to drop.
     */
    @Test
    void aReadFileByFileFiltersTheRowsItKeepsWhenAsked() throws IOException {
        create(withSplitTarget("1 b"));
        twoCommits();
        Predicate atLeast15 =
                new Predicate.Leaf(Predicate.Op.GT_EQ, 1, "a", TYPE.getTypeAt(1), List.of(15L));
        List<Split> splits = table.newScan().withFilter(atLeast15).plan().splits();

        assertThat(splits).extracting(Split::kind).containsOnly(Split.Kind.SNAPSHOT_BY_FILE);
        assertThat(read(splits, TYPE, atLeast15, false))
                .containsExactly("1,10,v1", "5,50,v5", "6,60,v6");
        assertThat(read(splits, TYPE, atLeast15, true)).containsExactly("5,50,v5", "6,60,v6");
    }

    /**
     * A merged read never filters rows before the merge, even asked to: id 2's older row matches
     * {@code a >= 15} and its newer does not, so filtering first would bring the older back.
     */
    @Test
    void aMergedReadDoesNotFilterRowsBeforeTheMerge() throws IOException {
        create(withSplitTarget("1 b"));
        commit(write(List.of(row(1, 10L, "a"), row(2, 20L, "b"))), Map.of());
        setVectors(false);
        commit(write(List.of(row(2, 5L, "c"))), Map.of());
        Predicate atLeast15 =
                new Predicate.Leaf(Predicate.Op.GT_EQ, 1, "a", TYPE.getTypeAt(1), List.of(15L));

        List<Split> splits = table.newScan().withFilter(atLeast15).plan().splits();

        assertThat(splits).extracting(Split::kind).containsOnly(Split.Kind.SNAPSHOT);
        assertThat(read(splits, TYPE, atLeast15, true))
                .containsExactlyInAnyOrder("1,10,a", "2,5,c");
    }

    /** Turns {@code deletion-vectors.enabled} on or off (ALTER TABLE) and loads the table again. */
    private void setVectors(boolean enabled) {
        table.alter(
                List.of(
                        new SchemaChange.SetOption(
                                "deletion-vectors.enabled", String.valueOf(enabled))));
        table = Table.load(table.io(), new Path(tempDir.toUri()), "db.users");
    }

    @Test
    void aMissingIndexFileFailsTheReadNamingItTheDataFileAndTheTable() throws IOException {
        create(WITH_VECTORS);
        DataFile[] files = twoCommits();
        List<Split> splits = table.newScan().plan().splits();
        DeletionFile vector = splits.get(0).vector(files[0]);
        Path index = context().indexFiles().path(vector.indexFile());
        context().io().delete(index, false);

        assertThatThrownBy(() -> read(splits, TYPE, null, r -> true))
                .hasCauseInstanceOf(FileNotFoundException.class)
                .hasMessageContaining("Index file " + index + " of table db.users (snapshot 2)")
                .hasMessageContaining("the deletion vector of data file " + files[0].fileName())
                .hasMessageContaining("is missing");
    }

    /**
     * The full phase of a streaming read is planned as a batch read is; the changes after it are
     * the files each snapshot added, without vectors.
     */
    @Test
    void theFullPhaseOfAStreamingReadIsReadFileByFileAndTheChangesAsBefore() throws IOException {
        Map<String, String> options = withSplitTarget("1 b");
        options.put("streaming-read.lookup-changelog", "false");
        create(options);
        twoCommits();
        StreamScan scan = table.newStreamScan(null);

        StreamScan.Start start = scan.start();

        assertThat(start.splits()).hasSize(2);
        assertThat(start.splits())
                .allSatisfy(s -> assertThat(s.kind()).isEqualTo(Split.Kind.SNAPSHOT_BY_FILE));
        assertThat(read(start.splits(), TYPE, null, r -> true))
                .containsExactlyInAnyOrderElementsOf(CURRENT);

        commit(write(List.of(row(8, 80L, "v8"))), Map.of());
        List<Split> changes = scan.changes(start.nextSnapshotId()).orElseThrow().splits();
        assertThat(changes).hasSize(1);
        assertThat(changes.get(0).kind()).isEqualTo(Split.Kind.DELTA);
        assertThat(changes.get(0).vectors()).isEmpty();
    }

    /**
     * A read that completes the changelog keeps each bucket's rows in key order, so its full phase
     * is one merged split per bucket, still without the deleted rows.
     */
    @Test
    void aStreamingReadThatCompletesTheChangelogMergesItsFullPhase() throws IOException {
        create(withSplitTarget("1 b"));
        twoCommits();

        StreamScan.Start start = table.newStreamScan(null).start();

        assertThat(table.newStreamScan(null).completesChangelog()).isTrue();
        assertThat(start.splits()).hasSize(1);
        assertThat(start.splits().get(0).kind()).isEqualTo(Split.Kind.SNAPSHOT);
        assertThat(start.splits().get(0).vectors()).hasSize(2);
        List<String> rows = new ArrayList<>();
        TableRead read = table.newRead().completingChangelog(null);
        try (TableRead.SplitReader reader = read.open(start.splits().get(0))) {
            for (RowData r = reader.next(); r != null; r = reader.next()) {
                rows.add(r.getLong(0) + "," + r.getLong(1));
            }
        }
        assertThat(rows).containsExactly("1,10", "2,5", "3,7", "5,50", "6,60", "7,1");
    }

    /**
     * With {@code full-compaction}, the full phase reads the last level as the last full compaction
     * left it: id 2's row there is the one the next full compaction's changelog retracts, so a
     * vector put on it since does not apply. (Writers refuse deletion vectors with this producer
     * for now; the vector is committed by hand.)
     */
    @Test
    void theFullPhaseOfAFullCompactionChangelogReadsTheLastLevelWithoutVectors()
            throws IOException {
        create(Map.of("bucket", "1", "changelog-producer", "full-compaction"));
        // A bounded write compacts fully at its end: its one live file is at the last level.
        List<CommitMessage> written =
                TestTables.write(table, List.of(row(1, 10L, "a"), row(2, 20L, "b")));
        TestTables.commit(table, "writer", CommitRequest.of(++commits, written));
        DataFile compacted = onlyLiveFile();
        CommitMessage m = written.get(0);
        commit(
                new CommitMessage(
                        m.partition(), m.bucket(), m.totalBuckets(), List.of(), List.of()),
                Map.of(compacted, new long[] {1}));

        StreamScan.Start start = table.newStreamScan(null).start();

        assertThat(start.splits()).hasSize(1);
        assertThat(start.splits().get(0).files()).containsExactly(compacted);
        assertThat(start.splits().get(0).vectors()).isEmpty();
        assertThat(read(start.splits(), TYPE, null, r -> true))
                .containsExactlyInAnyOrder("1,10,a", "2,20,b");
        assertThat(TestTables.readAll(table)).containsExactly("1,10,a");
    }

    private DataFile onlyLiveFile() {
        var reader = context().snapshotReader();
        var live = reader.liveFiles(reader.latest().orElseThrow()).values();
        assertThat(live).hasSize(1);
        return live.iterator().next().file();
    }

    private static Map<String, String> withSplitTarget(String size) {
        Map<String, String> options = new HashMap<>(WITH_VECTORS);
        options.put("source.split.target-size", size);
        return options;
    }

    /** The rows of {@code splits} read as {@code readType}, those {@code engine} keeps, as text. */
    private List<String> read(
            List<Split> splits,
            RowType readType,
            Predicate filter,
            Function<RowData, Boolean> engine) {
        return read(splits, readType, filter, engine, false);
    }

    /** Every row of {@code splits} read as {@code readType}, opened filtering rows or not. */
    private List<String> read(
            List<Split> splits, RowType readType, Predicate filter, boolean filterRows) {
        return read(splits, readType, filter, r -> true, filterRows);
    }

    private List<String> read(
            List<Split> splits,
            RowType readType,
            Predicate filter,
            Function<RowData, Boolean> engine,
            boolean filterRows) {
        List<RowData.FieldGetter> getters = new ArrayList<>();
        for (int i = 0; i < readType.getFieldCount(); i++) {
            getters.add(RowData.createFieldGetter(readType.getTypeAt(i), i));
        }
        List<String> rows = new ArrayList<>();
        TableRead read = table.newRead().withReadType(readType).withFilter(filter);
        for (Split split : splits) {
            try (TableRead.SplitReader reader = read.open(split, filterRows)) {
                for (RowData r = reader.next(); r != null; r = reader.next()) {
                    assertThat(r.getRowKind()).isEqualTo(RowKind.INSERT);
                    if (engine.apply(r)) {
                        List<String> values = new ArrayList<>();
                        for (RowData.FieldGetter g : getters) {
                            values.add(String.valueOf(g.getFieldOrNull(r)));
                        }
                        rows.add(String.join(",", values));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return rows;
    }
}
