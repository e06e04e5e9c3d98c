package dev.tarn.catalog.compact;

import dev.tarn.format.Table;
import dev.tarn.format.maintenance.FullCompaction;
import dev.tarn.format.write.CommitMessage;
import dev.tarn.format.write.CommitMessageCodec;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.util.Collector;

/**
 * The parallel step of a {@link CompactJob}: compacts the unit with the number it receives and
 * emits the resulting commit messages, encoded, for the committer. Writes files, commits nothing.
 * The units of one task share a {@link FullCompaction.Compactor}, which reads the table once.
 */
final class CompactUnitFunction extends RichFlatMapFunction<Long, byte[]> {

    private static final long serialVersionUID = 1L;

    private final Table table;
    private final List<FullCompaction.Unit> units;
    private transient FullCompaction.Compactor compactor;

    CompactUnitFunction(Table table, List<FullCompaction.Unit> units) {
        this.table = table;
        this.units = List.copyOf(units);
    }

    @Override
    public void open(OpenContext context) {
        compactor = table.maintenance().newCompactor();
    }

    @Override
    public void flatMap(Long unit, Collector<byte[]> out) throws IOException {
        for (CommitMessage message : compactor.compact(units.get(Math.toIntExact(unit)))) {
            out.collect(encode(message));
        }
    }

    /** Deletes the files of a compaction not yet emitted (a cancelled or failed task's). */
    @Override
    public void close() {
        if (compactor != null) {
            compactor.close();
            compactor = null;
        }
    }

    static byte[] encode(CommitMessage message) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            CommitMessageCodec.write(out, message);
        }
        return bytes.toByteArray();
    }
}
