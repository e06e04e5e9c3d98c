package dev.tarn.connector.sink;

import dev.tarn.format.write.CommitMessage;
import dev.tarn.format.write.CommitMessageCodec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Versioned binary form of {@link TarnCommittable}, kept in checkpoints. Version 2 added each
 * message's changelog files, version 3 the writer's watermark (after the messages: a boolean, then
 * the watermark if present), version 4 each file's content, version 5 each message's changes of
 * deletion vectors; committables of versions 1 and 2 are still read, without a watermark, and those
 * before version 4 take each file's content from its name.
 */
public final class TarnCommittableSerializer implements SimpleVersionedSerializer<TarnCommittable> {

    private static final int VERSION = 5;
    private static final List<Integer> SUPPORTED = List.of(1, 2, 3, 4, 5);

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(TarnCommittable committable) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeUTF(committable.user().name());
        out.writeLong(committable.user().createdMillis());
        out.writeLong(committable.checkpointId());
        out.writeInt(committable.messages().size());
        for (CommitMessage m : committable.messages()) {
            CommitMessageCodec.write(out, m);
        }
        out.writeBoolean(committable.watermark() != null);
        if (committable.watermark() != null) {
            out.writeLong(committable.watermark());
        }
        out.flush();
        return bytes.toByteArray();
    }

    @Override
    public TarnCommittable deserialize(int version, byte[] serialized) throws IOException {
        if (!SUPPORTED.contains(version)) {
            throw new IOException(
                    "Cannot read a Tarn committable of version "
                            + version
                            + "; supported versions: "
                            + SUPPORTED);
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized));
        CommitUser user = new CommitUser(in.readUTF(), in.readLong());
        long checkpointId = in.readLong();
        int count = in.readInt();
        List<CommitMessage> messages = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            messages.add(
                    switch (version) {
                        case 1 -> CommitMessageCodec.readWithoutChangelog(in);
                        case 2, 3 -> CommitMessageCodec.readWithoutContent(in);
                        case 4 -> CommitMessageCodec.readWithoutVectors(in);
                        default -> CommitMessageCodec.read(in);
                    });
        }
        Long watermark = version >= 3 && in.readBoolean() ? in.readLong() : null;
        return new TarnCommittable(user, checkpointId, messages, watermark);
    }
}
