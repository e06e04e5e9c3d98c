package dev.tarn.catalog;

import dev.tarn.format.Table;
import dev.tarn.format.maintenance.FullCompaction;
import dev.tarn.format.write.CommitMessage;
import dev.tarn.format.write.CommitMessageCodec;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.util.Collector;

/**
 * The parallel step of a {@link CompactJob}: compacts the unit with the number it receives and
 * emits the resulting commit messages, encoded, for the committer. Writes files, commits nothing.
 */
final class CompactUnitFunction extends RichFlatMapFunction<Long, byte[]> {

    private static final long serialVersionUID = 1L;

    private final Table table;
    private final List<FullCompaction.Unit> units;

    CompactUnitFunction(Table table, List<FullCompaction.Unit> units) {
        this.table = table;
        this.units = List.copyOf(units);
    }

    @Override
    public void flatMap(Long unit, Collector<byte[]> out) throws IOException {
        for (CommitMessage message :
                FullCompaction.compact(table.context(), units.get(Math.toIntExact(unit)))) {
            out.collect(encode(message));
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
