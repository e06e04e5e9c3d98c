package dev.tarn.format.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.write.TableWrite;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A streaming read of a primary-key table that stores no changelog, completed by the reader: the
 * changelog applied to an empty map stays consistent row by row ({@code +I} of a new key, {@code
 * -U} and {@code -D} with the exact current row, {@code +U} right after its {@code -U}) and ends
 * equal to a batch read; a reader restored at any position of any split continues with exactly the
 * rows the first one returned from there; and a reader with too little memory for its buckets, or
 * one not returning the key, returns the same changelog.
 */
class ChangelogCompletionTest {

    /** {@code (id BIGINT NOT NULL, v STRING, PRIMARY KEY (id))}. */
    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {new BigIntType(false), VarCharType.STRING_TYPE},
                    new String[] {"id", "v"});

    private static final RowType VALUE_ONLY =
            RowType.of(new LogicalType[] {VarCharType.STRING_TYPE}, new String[] {"v"});

    private static final int KEYS = 40;
    private static final int COMMITS = 8;

    @TempDir java.nio.file.Path tempDir;
    private Table table;

    /** Every split of the read, in the order the enumerator hands them to one reader. */
    private final List<Split> splits = new ArrayList<>();

    @BeforeEach
    void writeCommits() throws IOException {
        table =
                Table.create(
                        FileIO.flinkFileSystems(),
                        new Path(tempDir.toUri()),
                        "db.users",
                        TableSchema.create(
                                TYPE, List.of(), List.of("id"), Map.of("bucket", "2"), null));
        Random random = new Random(42);
        try (TableWrite write = table.newWrite()) {
            for (int c = 1; c <= COMMITS; c++) {
                for (int i = 0; i < 25; i++) {
                    long id = random.nextInt(KEYS);
                    int dice = random.nextInt(10);
                    if (c > 1 && dice < 2) {
                        write.write(row(RowKind.DELETE, id, "gone"));
                    } else if (dice < 4) {
                        // Often the value the key has: an update that changes nothing.
                        write.write(row(RowKind.INSERT, id, "v" + id));
                    } else {
                        write.write(row(RowKind.INSERT, id, "v" + id + "." + c + "." + i));
                    }
                }
                TestTables.commit(table, "user", CommitRequest.of(c, write.prepareCommit(false)));
            }
        }
        Table fromOne =
                table.withDynamicOptions(
                        Map.of("scan.mode", "from-snapshot-full", "scan.snapshot-id", "1"));
        StreamScan scan = fromOne.newStreamScan(null);
        assertThat(scan.seesWholeTable()).isTrue();
        splits.addAll(scan.start().splits());
        // Compactions add snapshots of their own, which bring no changes.
        for (long id = 2; ; id++) {
            Optional<StreamScan.Changes> changes = scan.changes(id);
            if (changes.isEmpty()) {
                break;
            }
            splits.addAll(changes.get().splits());
        }
    }

    private static RowData row(RowKind kind, long id, String v) {
        GenericRowData row = GenericRowData.of(id, StringData.fromString(v));
        row.setRowKind(kind);
        return row;
    }

    private TableRead completing(Table table, RowType readType) {
        assertThat(TableRead.completesChangelog(TableInternals.context(table), true)).isTrue();
        return table.newRead().withReadType(readType).completingChangelog(null);
    }

    /** The rows of {@code splits} from {@code first} on, that one at {@code position}. */
    private static List<String> read(TableRead read, List<Split> splits, int first, long position)
            throws IOException {
        List<String> out = new ArrayList<>();
        for (int s = first; s < splits.size(); s++) {
            try (TableRead.SplitReader reader = read.open(splits.get(s))) {
                if (s == first && position > 0) {
                    reader.seek(0, position);
                }
                for (RowData r = reader.next(); r != null; r = reader.next()) {
                    String text =
                            r.getArity() == 2
                                    ? r.getLong(0) + "," + r.getString(1)
                                    : r.getString(0).toString();
                    out.add(r.getRowKind().shortString() + text);
                }
            }
        }
        return out;
    }

    private List<String> batchRead() {
        List<String> rows = new ArrayList<>();
        TableRead read = table.newRead();
        for (Split split : table.newScan().plan().splits()) {
            try (TableRead.SplitReader reader = read.open(split)) {
                for (RowData r = reader.next(); r != null; r = reader.next()) {
                    rows.add(r.getLong(0) + "," + r.getString(1));
                }
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        }
        rows.sort(null);
        return rows;
    }

    @Test
    void theChangelogAppliedToAnEmptyMapStaysConsistentAndEndsEqualToABatchRead()
            throws IOException {
        List<String> changelog = read(completing(table, TYPE), splits, 0, 0);
        Map<Long, String> rows = new TreeMap<>();
        String pendingAfter = null;
        String before = null;
        int updates = 0;
        for (String change : changelog) {
            String kind = change.substring(0, 2);
            long id = Long.parseLong(change.substring(2, change.indexOf(',')));
            String full = change.substring(2);
            if (pendingAfter != null) {
                assertThat(kind + id).as("+U right after its -U").isEqualTo("+U" + pendingAfter);
                assertThat(full).as("an update that changes the row").isNotEqualTo(before);
                pendingAfter = null;
            }
            switch (kind) {
                case "+I" -> assertThat(rows.put(id, full)).as("+I of a new key " + id).isNull();
                case "-U" -> {
                    assertThat(rows.remove(id)).as("-U with the current row").isEqualTo(full);
                    pendingAfter = String.valueOf(id);
                    before = full;
                    updates++;
                }
                case "+U" ->
                        assertThat(rows.put(id, full)).as("+U of a key its -U removed").isNull();
                case "-D" -> assertThat(rows.remove(id)).as("-D with the row").isEqualTo(full);
                default -> throw new AssertionError("Unexpected row kind in " + change);
            }
        }
        assertThat(pendingAfter).isNull();
        assertThat(updates).as("updates in the stream").isGreaterThan(20);
        assertThat(changelog).as("deletes in the stream").anyMatch(c -> c.startsWith("-D"));
        List<String> materialized = new ArrayList<>(rows.values());
        materialized.sort(null);
        assertThat(materialized).isEqualTo(batchRead());
    }

    @Test
    void aReaderRestoredAtAnyPositionContinuesWithExactlyTheSameRows() throws IOException {
        TableRead first = completing(table, TYPE);
        List<String> all = new ArrayList<>();
        List<Integer> starts = new ArrayList<>();
        for (int s = 0; s < splits.size(); s++) {
            starts.add(all.size());
            all.addAll(read(first, splits.subList(s, s + 1), 0, 0));
        }
        int restores = 0;
        for (int s = 0; s < splits.size(); s++) {
            int rowsOfSplit =
                    (s + 1 < splits.size() ? starts.get(s + 1) : all.size()) - starts.get(s);
            for (int p = 0; p <= rowsOfSplit; p++) {
                List<String> rest = read(completing(table, TYPE), splits, s, p);
                assertThat(rest)
                        .as("restored at row %d of split %d (%s)", p, s, splits.get(s).kind())
                        .isEqualTo(all.subList(starts.get(s) + p, all.size()));
                restores++;
            }
        }
        assertThat(restores).isGreaterThan(splits.size());
    }

    @Test
    void tooLittleMemoryGivesTheSameChangelog() throws IOException {
        List<String> expected = read(completing(table, TYPE), splits, 0, 0);
        // None fits: every bucket looks up its files at each snapshot.
        Table tiny = table.withDynamicOptions(Map.of("streaming-read.lookup-memory", "1b"));
        assertThat(read(completing(tiny, TYPE), splits, 0, 0)).isEqualTo(expected);
        // One bucket's rows fit: the two take turns, each read again from its files.
        Table one = table.withDynamicOptions(Map.of("streaming-read.lookup-memory", "300kb"));
        assertThat(read(completing(one, TYPE), splits, 0, 0)).isEqualTo(expected);
    }

    @Test
    void readsOfTwoLanesSharingTooLittleMemoryGiveWayToEachOther() throws IOException {
        // One bucket's rows fit the shared memory: each lane's bucket evicts the other's.
        Table one = table.withDynamicOptions(Map.of("streaming-read.lookup-memory", "300kb"));
        TableRead first = completing(one, TYPE);
        TableRead second = one.newRead().withReadType(TYPE).completingChangelog(first);
        Map<Integer, List<String>> byBucket = new TreeMap<>();
        for (Split split : splits) {
            TableRead lane = split.bucket() == 0 ? first : second;
            byBucket.computeIfAbsent(split.bucket(), b -> new ArrayList<>())
                    .addAll(read(lane, List.of(split), 0, 0));
            if (byBucket.size() == 1) {
                assertThat(second.completionMemoryBytes())
                        .as("the memory the first lane's bucket takes, seen from the second")
                        .isPositive()
                        .isEqualTo(first.completionMemoryBytes());
            }
        }
        Map<Integer, List<String>> expectedByBucket = new TreeMap<>();
        TableRead solo = completing(table, TYPE);
        for (Split split : splits) {
            expectedByBucket
                    .computeIfAbsent(split.bucket(), b -> new ArrayList<>())
                    .addAll(read(solo, List.of(split), 0, 0));
        }
        assertThat(byBucket).isEqualTo(expectedByBucket);
        assertThat(second.completionMemoryBytes()).isLessThanOrEqualTo(300 * 1024);
    }

    @Test
    void aReadWithoutTheKeyColumnsStillCompletesByKey() throws IOException {
        List<String> expected = new ArrayList<>();
        for (String change : read(completing(table, TYPE), splits, 0, 0)) {
            expected.add(change.substring(0, 2) + change.substring(change.indexOf(',') + 1));
        }
        assertThat(read(completing(table, VALUE_ONLY), splits, 0, 0)).isEqualTo(expected);
    }

    @Test
    void onlyADeduplicatingTableThatStoresNoChangelogIsCompleted() {
        assertThat(TableRead.completesChangelog(TableInternals.context(table), false))
                .as("a read that does not see the whole table")
                .isFalse();
        Map<String, Boolean> cases = new HashMap<>();
        cases.put("changelog-producer=lookup", false);
        cases.put("merge-engine=partial-update", false);
        cases.put("sequence.field=v", false);
        cases.put("ignore-delete=true", false);
        cases.put("streaming-read.lookup-changelog=false", false);
        cases.put("streaming-read.lookup-changelog=true", true);
        cases.forEach(
                (option, completes) -> {
                    String[] kv = option.split("=");
                    Table other =
                            Table.create(
                                    FileIO.flinkFileSystems(),
                                    new Path(tempDir.resolve(kv[0] + kv[1]).toUri()),
                                    "db.other",
                                    TableSchema.create(
                                            TYPE,
                                            List.of(),
                                            List.of("id"),
                                            Map.of(kv[0], kv[1]),
                                            null));
                    assertThat(TableRead.completesChangelog(TableInternals.context(other), true))
                            .as(option)
                            .isEqualTo(completes);
                });
    }
}
