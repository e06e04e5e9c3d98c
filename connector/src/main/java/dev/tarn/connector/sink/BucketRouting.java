package dev.tarn.connector.sink;

import dev.tarn.format.Table;
import dev.tarn.format.bucket.BucketChannels;
import dev.tarn.format.bucket.RowRouter;
import org.apache.flink.api.common.functions.Partitioner;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.table.data.RowData;

/**
 * Sends all rows of one bucket of a primary-key table to one writer subtask, so a bucket has a
 * single writer: its sequence numbers grow and its compactions do not race. The channel is the
 * bucket's {@link BucketChannels#channel}, as for the source's readers. The row is its own key, so
 * routing a row boxes nothing.
 *
 * <p>This runs on the sending side of the shuffle, and the writer's {@code TableWrite} finds the
 * row's partition and bucket again on the receiving side. Carrying them across instead would need
 * an operator in front of the shuffle to attach them, and in a streaming job (no object reuse)
 * Flink hands such a chained operator a copy of every row: more per-row work and allocation than
 * hashing the bucket key twice.
 */
final class BucketRouting implements KeySelector<RowData, RowData>, Partitioner<RowData> {

    private static final long serialVersionUID = 1L;

    private final Table table;
    private transient RowRouter router;

    BucketRouting(Table table) {
        this.table = table;
    }

    @Override
    public RowData getKey(RowData row) {
        return row;
    }

    @Override
    public int partition(RowData row, int numPartitions) {
        if (router == null) {
            router = new RowRouter(table.schema(), table.config().bucket());
        }
        return BucketChannels.channel(router.partition(row), router.bucket(row), numPartitions);
    }
}
