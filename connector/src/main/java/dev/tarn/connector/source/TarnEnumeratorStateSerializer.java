package dev.tarn.connector.source;

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
 * version 2 form).
 */
public final class TarnEnumeratorStateSerializer
        implements SimpleVersionedSerializer<TarnEnumeratorState> {

    private static final int VERSION = 2;

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
        out.flush();
        return bytes.toByteArray();
    }

    @Override
    public TarnEnumeratorState deserialize(int version, byte[] serialized) throws IOException {
        TarnSplitSerializer.checkVersion(version);
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized));
        long next = version == 1 ? -1 : in.readLong();
        int count = in.readInt();
        List<TarnSplit> pending = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            pending.add(TarnSplitSerializer.read(version, in));
        }
        Map<String, Long> inFlight = new HashMap<>();
        if (version >= 2) {
            int flying = in.readInt();
            for (int i = 0; i < flying; i++) {
                inFlight.put(in.readUTF(), in.readLong());
            }
        }
        return new TarnEnumeratorState(next, pending, inFlight);
    }
}
