package dev.tarn.connector.sink;

import dev.tarn.format.Table;
import dev.tarn.format.bucket.RowRouter;
import org.apache.flink.api.common.functions.Partitioner;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.table.data.RowData;

/**
 * Sends all rows of one bucket of a primary-key table to one writer subtask, so a bucket has a
 * single writer: its sequence numbers grow and its compactions do not race. The key is a hash of
 * (partition, bucket); the channel is that hash modulo the writer parallelism.
 */
final class BucketRouting implements KeySelector<RowData, Integer>, Partitioner<Integer> {

    private static final long serialVersionUID = 1L;

    private final Table table;
    private transient RowRouter router;

    BucketRouting(Table table) {
        this.table = table;
    }

    @Override
    public Integer getKey(RowData row) {
        if (router == null) {
            router = new RowRouter(table.schema(), table.config().bucket());
        }
        return 31 * router.partition(row).hashCode() + router.bucket(row);
    }

    @Override
    public int partition(Integer key, int numPartitions) {
        return Math.floorMod(key, numPartitions);
    }
}
