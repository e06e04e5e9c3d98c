package dev.tarn.format;

import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.StreamScan;
import dev.tarn.format.read.TableRead;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.write.TableWrite;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
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

/**
 * A {@code lookup} table whose history holds every file content writers produce (data files, a
 * restored writer's catch-up changelog files, before-image files), and its changes and rows as
 * text, the way streaming and batch reads plan and read them.
 */
public final class ChangelogTables {

    /** {@code (id BIGINT NOT NULL, v STRING)}, keyed by {@code id}. */
    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {new BigIntType(false), VarCharType.STRING_TYPE},
                    new String[] {"id", "v"});

    /** Keys below it are written first in each commit, the others after them. */
    public static final int HALF = 200;

    private ChangelogTables() {}

    /** A {@code lookup} table at {@code location}, with {@code options} over the defaults. */
    public static Table create(java.nio.file.Path location, Map<String, String> options)
            throws IOException {
        Map<String, String> all = new HashMap<>();
        all.put("bucket", "2");
        all.put("changelog-producer", "lookup");
        // A small buffer that does not spill: several flushes per commit.
        all.put("write-buffer-size", "96kb");
        all.put("write-buffer-spillable", "false");
        all.putAll(options);
        return Table.create(
                FileIO.flinkFileSystems(),
                new Path(location.toUri()),
                TestTables.NAME,
                TableSchema.create(TYPE, List.of(), List.of("id"), all, null));
    }

    /**
     * A loader's commit, then a restored writer's commits: it looks up the flushes before its first
     * commit (changelog files) and stores before-images for the later ones.
     */
    public static void writeHistory(Table table, Random random) throws IOException {
        try (TableWrite write = table.newWrite()) {
            commit(table, write, random, "loader", 1);
        }
        try (TableWrite write = table.newWrite().deferRestore()) {
            for (long id = 1; id <= 3; id++) {
                commit(table, write, random, "job", id);
            }
        }
    }

    /**
     * Upserts and deletes of the low keys, then of the high ones, committed as {@code id} of {@code
     * user}: flushes of one half only are pruned apart by a filter on the key.
     */
    public static void commit(Table table, TableWrite write, Random random, String user, long id)
            throws IOException {
        write(write, random, 0, 2000);
        write(write, random, HALF, 2000);
        TestTables.commit(table, user, CommitRequest.of(id, write.prepareCommit(false)));
    }

    private static void write(TableWrite write, Random random, int from, int n) throws IOException {
        for (int i = 0; i < n; i++) {
            long id = from + random.nextInt(HALF);
            GenericRowData row =
                    GenericRowData.of(id, StringData.fromString("v" + random.nextInt(1000)));
            row.setRowKind(random.nextInt(10) == 0 ? RowKind.DELETE : RowKind.UPDATE_AFTER);
            write.write(row);
        }
    }

    /** Every change of every snapshot, as {@code "<snapshot>:<kind><id>|<v>"}. */
    public static List<String> changes(Table table, Predicate filter) throws IOException {
        StreamScan scan = table.newStreamScan(filter);
        long latest = TableInternals.context(table).snapshotManager().latestId().getAsLong();
        List<String> changes = new ArrayList<>();
        for (long id = 1; id <= latest; id++) {
            for (String row : rows(table, scan.changes(id).orElseThrow().splits())) {
                changes.add(id + ":" + row);
            }
        }
        return changes;
    }

    /** The rows of the latest snapshot, as {@code "<kind><id>|<v>"}. */
    public static List<String> rows(Table table) throws IOException {
        return rows(table, table.newScan().plan().splits());
    }

    private static List<String> rows(Table table, List<Split> splits) throws IOException {
        List<String> rows = new ArrayList<>();
        TableRead read = table.newRead();
        for (Split split : splits) {
            try (TableRead.SplitReader reader = read.open(split)) {
                for (RowData r = reader.next(); r != null; r = reader.next()) {
                    rows.add(r.getRowKind().shortString() + r.getLong(0) + "|" + r.getString(1));
                }
            }
        }
        return rows;
    }

    /** The names of every file and directory below {@code location}. */
    public static List<String> fileNames(java.nio.file.Path location) throws IOException {
        try (Stream<java.nio.file.Path> files = Files.walk(location)) {
            return files.map(f -> f.getFileName().toString()).toList();
        }
    }
}
