package dev.tarn.connector.source.enumerator;

import dev.tarn.connector.source.split.TarnSplit;
import dev.tarn.connector.source.split.TarnSplitSerializer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Versioned binary form of the enumerator's checkpoint. Version 1 held the pending splits alone;
 * version 2 adds the next snapshot to plan and the splits in flight (and writes splits in their
 * version 2 form); version 3 adds, at the end, the table's watermark (a boolean, then the watermark
 * if present) and the readers' reports (a count, then snapshot id and watermark pairs), and still
 * holds splits in their version 2 form; version 4 holds them in their version 3 form (each file
 * with its content), version 5 in their version 4 form (each file with its deletion vector),
 * version 6 in their version 5 form (with their event time), version 7 in their version 6 form
 * (whether their position counts only the rows the filter keeps). Versions 1 and 2 are still read,
 * without a watermark, and versions 3 to 6.
 */
public final class TarnEnumeratorStateSerializer
        implements SimpleVersionedSerializer<TarnEnumeratorState> {

    private static final int VERSION = 7;
    private static final List<Integer> SUPPORTED = List.of(1, 2, 3, 4, 5, 6, 7);

    /** The split layout each state version holds its splits in. */
    private static int splitVersion(int version) {
        return switch (version) {
            case 1 -> 1;
            case 2, 3 -> 2;
            case 4 -> 3;
            case 5 -> 4;
            case 6 -> 5;
            default -> 6;
        };
    }

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(TarnEnumeratorState state) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeLong(state.nextSnapshotId());
        out.writeInt(state.pending().size());
        for (TarnSplit split : state.pending()) {
            TarnSplitSerializer.write(out, split);
        }
        out.writeInt(state.inFlight().size());
        for (Map.Entry<String, Long> e : state.inFlight().entrySet()) {
            out.writeUTF(e.getKey());
            out.writeLong(e.getValue());
        }
        out.writeBoolean(state.watermark() != null);
        if (state.watermark() != null) {
            out.writeLong(state.watermark());
        }
        out.writeInt(state.reported().size());
        for (Map.Entry<Long, Long> e : state.reported().entrySet()) {
            out.writeLong(e.getKey());
            out.writeLong(e.getValue());
        }
        out.flush();
        return bytes.toByteArray();
    }

    @Override
    public TarnEnumeratorState deserialize(int version, byte[] serialized) throws IOException {
        if (!SUPPORTED.contains(version)) {
            throw new IOException(
                    "Cannot read a Tarn enumerator checkpoint of version "
                            + version
                            + "; supported versions: "
                            + SUPPORTED);
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized));
        long next = version == 1 ? -1 : in.readLong();
        int count = in.readInt();
        List<TarnSplit> pending = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            pending.add(TarnSplitSerializer.read(splitVersion(version), in));
        }
        Map<String, Long> inFlight = new HashMap<>();
        if (version >= 2) {
            int flying = in.readInt();
            for (int i = 0; i < flying; i++) {
                inFlight.put(in.readUTF(), in.readLong());
            }
        }
        Long watermark = null;
        Map<Long, Long> reported = new HashMap<>();
        if (version >= 3) {
            watermark = in.readBoolean() ? in.readLong() : null;
            int reports = in.readInt();
            for (int i = 0; i < reports; i++) {
                reported.put(in.readLong(), in.readLong());
            }
        }
        return new TarnEnumeratorState(next, pending, inFlight, watermark, reported);
    }
}
