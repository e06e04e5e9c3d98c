package dev.tarn.benchmarks;

import dev.tarn.format.Table;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.TableRead;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * What a benchmark table holds, as far as its checks go: the rows, and the SUM of their {@link
 * RowChecksum}. Equal contents of a Tarn and a Paimon table mean the same rows, whatever their
 * order.
 */
record TableContents(long rows, long checksum) {

    /** What rows {@code from} to {@code to - 1} of a generator make. */
    static TableContents generated(BenchGenFactory.Rows generator, long from, long to) {
        long checksum = 0;
        for (long i = from; i < to; i++) {
            checksum += RowChecksum.of(generator.row(i));
        }
        return new TableContents(Math.max(0, to - from), checksum);
    }

    /** What {@code table} holds, by a query on {@code env}. */
    static TableContents query(TableEnvironment env, String table) throws Exception {
        RowChecksum.register(env);
        try (CloseableIterator<Row> it =
                env.executeSql("SELECT COUNT(*), SUM(" + RowChecksum.CALL + ") FROM " + table)
                        .collect()) {
            Row row = it.next();
            Long checksum = (Long) row.getField(1);
            return new TableContents((Long) row.getField(0), checksum == null ? 0 : checksum);
        }
    }

    /**
     * The rows of {@code table}'s latest snapshot, read in the calling thread through the format's
     * scan and read, without Flink.
     */
    static long countRows(Table table) throws Exception {
        long count = 0;
        TableRead read = table.newRead();
        for (Split split : table.newScan().plan().splits()) {
            try (TableRead.SplitReader reader = read.open(split)) {
                for (RowData r = reader.next(); r != null; r = reader.next()) {
                    count++;
                }
            }
        }
        return count;
    }

    /** Fails unless {@code table}, queried on {@code env}, holds what {@code this} says. */
    void check(TableEnvironment env, String table) throws Exception {
        TableContents actual = query(env, table);
        if (!actual.equals(this)) {
            throw new WrongResultException(table + " holds " + actual + ", expected " + this);
        }
    }

    @Override
    public String toString() {
        return String.format("%,d rows with checksum %d", rows, checksum);
    }
}
