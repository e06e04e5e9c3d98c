package dev.tarn.format.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.ChangelogChecks;
import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.FileContent;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.write.TableWrite;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Streaming reads of a {@code lookup} table of the deduplicate engine, whose flushes store
 * before-images beside their level-0 files (SPEC.md, "Changelog files"): each snapshot's changes,
 * applied to a map, give its rows; a read resumes at any position; a read without the key pairs the
 * same rows; and a writer's catch-up (full changelog rows) and later flushes read in order.
 */
class FlushChangelogReaderTest {

    /** {@code (id BIGINT NOT NULL, v STRING, n BIGINT)}, keyed by {@code id}. */
    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {
                        new BigIntType(false), VarCharType.STRING_TYPE, new BigIntType()
                    },
                    new String[] {"id", "v", "n"});

    private static final int KEYS = 400;

    @TempDir java.nio.file.Path dir;

    private Table table() throws IOException {
        return Table.create(
                FileIO.flinkFileSystems(),
                new Path(dir.toUri()),
                "db.t",
                TableSchema.create(
                        TYPE,
                        List.of(),
                        List.of("id"),
                        // A small buffer that does not spill: several flushes per commit.
                        Map.of(
                                "bucket", "2",
                                "changelog-producer", "lookup",
                                "write-buffer-size", "96kb",
                                "write-buffer-spillable", "false"),
                        null));
    }

    private static RowData row(RowKind kind, long id, String v, long n) {
        GenericRowData row = GenericRowData.of(id, StringData.fromString(v), n);
        row.setRowKind(kind);
        return row;
    }

    /** Deletes (some of missing keys), rewrites of a key's row as it is, and new values. */
    private static void writeRandom(
            TableWrite write, Map<Long, RowData> written, Random random, int n) throws IOException {
        for (int i = 0; i < n; i++) {
            long id = random.nextInt(KEYS);
            int dice = random.nextInt(20);
            RowData current = written.get(id);
            if (dice < 3) {
                write.write(row(RowKind.DELETE, id, "?", 0));
                written.remove(id);
            } else if (dice < 5 && current != null) {
                write.write(row(RowKind.UPDATE_AFTER, id, current.getString(1).toString(), 7 * id));
            } else {
                RowData r =
                        row(
                                RowKind.UPDATE_AFTER,
                                id,
                                "v" + random.nextInt(1000) + "-".repeat(random.nextInt(30)),
                                7 * id);
                write.write(r);
                written.put(id, r);
            }
        }
    }

    @Test
    void theChangesOfEachSnapshotAppliedToAMapAreItsRowsFromAnyPosition() throws Exception {
        Table table = table();
        Random random = new Random(7);
        Map<Long, RowData> written = new TreeMap<>();
        Map<Long, String> view = new TreeMap<>();
        int flushesSeen = 0;
        try (TableWrite write = table.newWrite()) {
            for (int commit = 1; commit <= 5; commit++) {
                writeRandom(write, written, random, 2500);
                TestTables.commit(
                        table, "job", CommitRequest.of(commit, write.prepareCommit(false)));
            }
        }
        StreamScan scan = table.newStreamScan(null);
        long latest = TableInternals.context(table).snapshotManager().latestId().getAsLong();
        for (long id = 1; id <= latest; id++) {
            for (Split split : scan.changes(id).orElseThrow().splits()) {
                List<String> rows = readAll(table.newRead(), split);
                apply(rows, view, id);
                assertResumesAnywhere(table.newRead(), split, rows);
                // Without the key: the same rows, without it.
                RowType valuesOnly =
                        RowType.of(new LogicalType[] {VarCharType.STRING_TYPE}, new String[] {"v"});
                List<String> values = new ArrayList<>();
                try (TableRead.SplitReader reader =
                        table.newRead().withReadType(valuesOnly).open(split)) {
                    for (RowData r = reader.next(); r != null; r = reader.next()) {
                        values.add(r.getRowKind().shortString() + r.getString(0));
                    }
                }
                assertThat(values)
                        .isEqualTo(
                                rows.stream()
                                        .map(r -> r.substring(0, 2) + r.split("\\|")[1])
                                        .toList());
                flushesSeen +=
                        (int)
                                split.files().stream()
                                        .filter(f -> f.content() == FileContent.BEFORE_IMAGES)
                                        .map(DataFile::sequence)
                                        .distinct()
                                        .count();
            }
            assertThat(view)
                    .as("snapshot %d", id)
                    .isEqualTo(
                            tableRows(
                                    table.withDynamicOptions(
                                            Map.of("scan.snapshot-id", String.valueOf(id)))));
        }
        assertThat(flushesSeen).as("flushes with before-images").isGreaterThan(10);
    }

    @Test
    void aCatchUpsFullChangelogComesBeforeTheFlushesAfterIt() throws Exception {
        Table table = table();
        Random random = new Random(11);
        Map<Long, RowData> written = new TreeMap<>();
        try (TableWrite write = table.newWrite()) {
            writeRandom(write, written, random, 2500);
            TestTables.commit(table, "loader", CommitRequest.of(1, write.prepareCommit(true)));
        }
        Map<Long, String> view = new TreeMap<>(tableRows(table));
        long before = TableInternals.context(table).snapshotManager().latestId().getAsLong();
        // A restored job's writer flushes before it knows the table's files: those flushes are
        // looked up at its first checkpoint, the rest as before-images.
        try (TableWrite write = table.newWrite().deferRestore()) {
            writeRandom(write, written, random, 2500);
            TestTables.commit(table, "job", CommitRequest.of(1, write.prepareCommit(false)));
        }
        StreamScan scan = table.newStreamScan(null);
        boolean full = false;
        boolean images = false;
        for (long id = before + 1;
                id <= TableInternals.context(table).snapshotManager().latestId().getAsLong();
                id++) {
            for (Split split : scan.changes(id).orElseThrow().splits()) {
                for (DataFile f : split.files()) {
                    full |= f.content() == FileContent.CHANGELOG;
                    images |= f.content() == FileContent.BEFORE_IMAGES;
                }
                List<String> rows = readAll(table.newRead(), split);
                apply(rows, view, id);
                assertResumesAnywhere(table.newRead(), split, rows);
            }
        }
        assertThat(full).as("full changelog rows of the catch-up").isTrue();
        assertThat(images).as("before-images of the flushes after it").isTrue();
        assertThat(view).isEqualTo(tableRows(table));
    }

    private static String text(RowData r) {
        return r.getRowKind().shortString()
                + r.getLong(0)
                + "|"
                + r.getString(1)
                + "|"
                + (r.isNullAt(2) ? "null" : r.getLong(2));
    }

    private static List<String> readAll(TableRead read, Split split) throws IOException {
        List<String> rows = new ArrayList<>();
        try (TableRead.SplitReader reader = read.open(split)) {
            for (RowData r = reader.next(); r != null; r = reader.next()) {
                rows.add(text(r));
            }
        }
        return rows;
    }

    /** A reader that seeks to the position after each row returns the rows after it. */
    private static void assertResumesAnywhere(TableRead read, Split split, List<String> rows)
            throws IOException {
        List<int[]> files = new ArrayList<>();
        List<Long> inFile = new ArrayList<>();
        try (TableRead.SplitReader reader = read.open(split)) {
            files.add(new int[] {reader.fileIndex()});
            inFile.add(reader.rowsInFile());
            while (reader.next() != null) {
                files.add(new int[] {reader.fileIndex()});
                inFile.add(reader.rowsInFile());
            }
        }
        int step = Math.max(1, rows.size() / 60);
        for (int at = 0; at <= rows.size(); at += step) {
            List<String> rest = new ArrayList<>();
            try (TableRead.SplitReader reader = read.open(split)) {
                reader.seek(files.get(at)[0], inFile.get(at));
                for (RowData r = reader.next(); r != null; r = reader.next()) {
                    rest.add(text(r));
                }
            }
            assertThat(rest)
                    .as("resumed after %d of %d rows", at, rows.size())
                    .isEqualTo(rows.subList(at, rows.size()));
        }
    }

    private static void apply(List<String> rows, Map<Long, String> view, long snapshot) {
        ChangelogChecks.apply(
                rows,
                view,
                row -> Long.parseLong(row.substring(0, row.indexOf('|'))),
                "snapshot " + snapshot);
    }

    private static Map<Long, String> tableRows(Table table) throws IOException {
        Map<Long, String> rows = new TreeMap<>();
        TableRead read = table.newRead();
        for (Split split : table.newScan().plan().splits()) {
            try (TableRead.SplitReader reader = read.open(split)) {
                for (RowData r = reader.next(); r != null; r = reader.next()) {
                    rows.put(r.getLong(0), text(r).substring(2));
                }
            }
        }
        return rows;
    }
}
