package dev.tarn.connector.sink;

import dev.tarn.format.Table;
import dev.tarn.format.write.TableWrite;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;

/**
 * One writer subtask: rows go to a {@link TableWrite}; at each checkpoint barrier (and at the end
 * of a bounded input) the open files are closed and handed on as one {@link TarnCommittable}. Holds
 * no state across checkpoints: every file it wrote before a barrier is in a committable. In a
 * primary-key table each row's kind is its kind of change; an append table takes inserts only. Each
 * committable carries the highest watermark the writer has received, for the snapshot.
 *
 * <p>In a checkpointed job the writer starts its buckets from the table only at its first
 * checkpoint: after a restore the committer publishes the restored committables while it
 * initializes, which may be after this writer's first rows (and the writer, holding no state, is
 * not told it was restored) but is always before the next checkpoint is triggered.
 */
final class TarnSinkWriter implements CommittingSinkWriter<RowData, TarnCommittable> {

    /** The real checkpoint id is set downstream, by {@link CommittableRouter}. */
    static final long UNTAGGED = -1;

    private final Table table;
    private final CommitUser user;
    private final TableWrite write;
    private final boolean takesChanges;
    private boolean endOfInput;

    /** The highest watermark received, or {@link Long#MIN_VALUE} before the first. */
    private long watermark = Long.MIN_VALUE;

    /**
     * @param checkpointed the job takes checkpoints, so a first checkpoint will come
     * @param localDir where the write buffers spill (the TaskManager's temporary directory)
     */
    TarnSinkWriter(
            Table table,
            CommitUser user,
            boolean overwrite,
            boolean checkpointed,
            java.nio.file.Path localDir) {
        this.table = table;
        this.user = user;
        this.write = table.newWrite(overwrite).spillUnder(localDir);
        if (checkpointed) {
            write.deferRestore();
        }
        this.takesChanges = table.kind().takesChanges();
    }

    /** Reports the write's buckets to {@code group} ({@link WriterMetrics}). */
    void registerMetrics(MetricGroup group) {
        WriterMetrics.register(group, write);
    }

    @Override
    public void write(RowData row, Context context) throws IOException {
        if (!takesChanges && row.getRowKind() != RowKind.INSERT) {
            throw new IllegalStateException(
                    "Append table "
                            + table.name()
                            + " accepts only inserts, got a "
                            + row.getRowKind().shortString()
                            + " row; declare a primary key to apply updates and deletes");
        }
        write.write(row);
    }

    /**
     * Keeps the highest watermark but the end of input's: {@code Long.MAX_VALUE} only says that
     * this job's input ended, and recorded in the table it would pass every later writer's.
     */
    @Override
    public void writeWatermark(Watermark mark) {
        if (mark.getTimestamp() != Long.MAX_VALUE) {
            watermark = Math.max(watermark, mark.getTimestamp());
        }
    }

    @Override
    public void flush(boolean endOfInput) {
        // Files are closed in prepareCommit, which always follows; at the end of the input it
        // waits for running compactions so that their results are committed too.
        this.endOfInput = endOfInput;
    }

    @Override
    public Collection<TarnCommittable> prepareCommit() throws IOException {
        return List.of(
                new TarnCommittable(
                        user,
                        UNTAGGED,
                        write.prepareCommit(endOfInput),
                        watermark == Long.MIN_VALUE ? null : watermark));
    }

    @Override
    public void close() {
        write.close();
    }
}
