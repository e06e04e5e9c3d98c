package dev.tarn.connector.source;

import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DataFileCodec;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.read.Split;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/** Versioned binary form of {@link TarnSplit}, kept in checkpoints and sent to readers. */
public final class TarnSplitSerializer implements SimpleVersionedSerializer<TarnSplit> {

    private static final List<Integer> SUPPORTED = List.of(1);

    @Override
    public int getVersion() {
        return 1;
    }

    @Override
    public byte[] serialize(TarnSplit split) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        write(out, split);
        out.flush();
        return bytes.toByteArray();
    }

    static void write(DataOutput out, TarnSplit split) throws IOException {
        out.writeUTF(split.id());
        out.writeLong(split.recordsToSkip());
        Split s = split.split();
        out.writeLong(s.snapshotId());
        DataFileCodec.writePartition(out, s.partition());
        out.writeInt(s.bucket());
        out.writeInt(s.totalBuckets());
        out.writeInt(s.files().size());
        for (DataFile f : s.files()) {
            DataFileCodec.writeFile(out, f);
        }
    }

    @Override
    public TarnSplit deserialize(int version, byte[] serialized) throws IOException {
        checkVersion(version);
        return read(new DataInputStream(new ByteArrayInputStream(serialized)));
    }

    static void checkVersion(int version) throws IOException {
        if (!SUPPORTED.contains(version)) {
            throw new IOException(
                    "Cannot read a Tarn split of version "
                            + version
                            + "; supported versions: "
                            + SUPPORTED);
        }
    }

    static TarnSplit read(DataInput in) throws IOException {
        String id = in.readUTF();
        long skip = in.readLong();
        long snapshotId = in.readLong();
        Partition partition = DataFileCodec.readPartition(in);
        int bucket = in.readInt();
        int totalBuckets = in.readInt();
        int count = in.readInt();
        List<DataFile> files = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            files.add(DataFileCodec.readFile(in));
        }
        return new TarnSplit(
                id, new Split(snapshotId, partition, bucket, totalBuckets, files), skip);
    }
}
