package dev.tarn.connector.source;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/** Versioned binary form of the enumerator's checkpoint: the splits not yet assigned. */
public final class TarnEnumeratorStateSerializer
        implements SimpleVersionedSerializer<List<TarnSplit>> {

    @Override
    public int getVersion() {
        return 1;
    }

    @Override
    public byte[] serialize(List<TarnSplit> pending) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(pending.size());
        for (TarnSplit split : pending) {
            TarnSplitSerializer.write(out, split);
        }
        out.flush();
        return bytes.toByteArray();
    }

    @Override
    public List<TarnSplit> deserialize(int version, byte[] serialized) throws IOException {
        TarnSplitSerializer.checkVersion(version);
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized));
        int count = in.readInt();
        List<TarnSplit> pending = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            pending.add(TarnSplitSerializer.read(in));
        }
        return pending;
    }
}
