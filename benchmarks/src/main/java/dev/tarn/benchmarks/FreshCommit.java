package dev.tarn.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * Freshness of a batch read after a streaming commit: commits through the system's own writer, as a
 * streaming writer task commits at a checkpoint (without waiting for its compactions), each
 * rewriting the same keys of a benchmark table with a new {@code s2}, and after each a batch query
 * of the whole table. A fresh read sees every row of the last commit and none it replaced: the
 * table's rows and checksum are what the commits imply. With deletion vectors, Tarn's writer marks
 * the replaced rows in the commit that replaces them; Paimon hides level-0 files from batch reads
 * until a compaction has made their vectors.
 */
final class FreshCommit {

    /**
     * The {@code s2} of the rows of commit n: {@code fresh-n}, a value the generator never makes.
     */
    private static final String MARK = "fresh-";

    /**
     * What the batch read right after one commit saw.
     *
     * @param found how many of the commit's rows it found
     */
    record Read(int commit, int rewritten, long found, TableContents expected, TableContents seen) {

        /** Whether it saw the commit's rows, and only the rows the table should hold. */
        boolean fresh() {
            return found == rewritten && seen.equals(expected);
        }

        @Override
        public String toString() {
            return String.format(
                    "after commit %d, %,d of its %,d rewritten keys, %s (expected %s)",
                    commit, found, rewritten, seen, expected);
        }
    }

    private FreshCommit() {}

    /**
     * Makes {@code commits} commits to {@code table} of {@code system}, each rewriting the keys of
     * {@code current}, and reads the table in batch right after each.
     *
     * @param current the rows the table holds for the keys the commits rewrite
     * @param before what the table holds before the first commit
     */
    static List<Read> run(
            LakeSystem system,
            String table,
            List<RowData> current,
            TableContents before,
            int commits)
            throws Exception {
        Map<Long, Long> checksums = new LinkedHashMap<>();
        current.forEach(row -> checksums.put(row.getLong(0), RowChecksum.of(row)));
        long checksum = before.checksum();
        List<Read> reads = new ArrayList<>();
        try (InProcessWriter writer = system.writer(table)) {
            for (int commit = 1; commit <= commits; commit++) {
                for (RowData row : current) {
                    RowData rewritten = rewrite(row, MARK + commit);
                    long id = row.getLong(0);
                    checksum += RowChecksum.of(rewritten) - checksums.get(id);
                    checksums.put(id, RowChecksum.of(rewritten));
                    writer.write(rewritten);
                }
                writer.commit();
                TableEnvironment env = SessionCluster.environment(false, 1);
                system.addCatalog(env);
                TableContents seen = TableContents.query(env, system.table(table));
                reads.add(
                        new Read(
                                commit,
                                current.size(),
                                marked(env, system.table(table), MARK + commit),
                                new TableContents(before.rows(), checksum),
                                seen));
            }
        }
        return reads;
    }

    /** Fails unless every read saw its commit: what Tarn's batch reads must always do. */
    static void check(String system, List<Read> reads) {
        for (Read read : reads) {
            if (!read.fresh()) {
                throw new WrongResultException(
                        String.format(
                                "a batch read of %s right after a streaming commit missed it: %s",
                                system, read));
            }
        }
    }

    private static RowData rewrite(RowData row, String s2) {
        return GenericRowData.of(
                row.getLong(0),
                row.getInt(1),
                row.getString(2),
                StringData.fromString(s2),
                row.getDouble(4),
                row.getInt(5),
                row.getTimestamp(6, 3),
                row.getBoolean(7));
    }

    private static long marked(TableEnvironment env, String table, String s2) throws Exception {
        try (CloseableIterator<Row> it =
                env.executeSql("SELECT COUNT(*) FROM " + table + " WHERE s2 = '" + s2 + "'")
                        .collect()) {
            return (Long) it.next().getField(0);
        }
    }
}
