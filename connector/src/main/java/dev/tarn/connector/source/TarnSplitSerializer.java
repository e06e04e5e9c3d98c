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

/**
 * Versioned binary form of {@link TarnSplit}, kept in checkpoints and sent to readers. Version 2
 * added the split's kind and the position as file and rows in it; version 3 each file's content;
 * version 1 splits (whole snapshots, with a count of rows emitted) and version 2 splits (whose
 * files' content their names tell) are still read.
 */
public final class TarnSplitSerializer implements SimpleVersionedSerializer<TarnSplit> {

    static final int VERSION = 3;
    private static final List<Integer> SUPPORTED = List.of(1, 2, 3);

    @Override
    public int getVersion() {
        return VERSION;
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
        out.writeInt(split.fileIndex());
        out.writeLong(split.rowsInFile());
        Split s = split.split();
        out.writeByte(s.kind().ordinal());
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
        return read(version, new DataInputStream(new ByteArrayInputStream(serialized)));
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

    static TarnSplit read(int version, DataInput in) throws IOException {
        String id = in.readUTF();
        // Version 1 counted the rows emitted from the whole split: file -1 says so.
        int fileIndex = version == 1 ? -1 : in.readInt();
        long rows = in.readLong();
        Split.Kind kind = Split.Kind.SNAPSHOT;
        if (version >= 2) {
            int ordinal = in.readByte();
            if (ordinal < 0 || ordinal >= Split.Kind.values().length) {
                throw new IOException("Corrupt Tarn split " + id + ": unknown kind " + ordinal);
            }
            kind = Split.Kind.values()[ordinal];
        }
        long snapshotId = in.readLong();
        Partition partition = DataFileCodec.readPartition(in);
        int bucket = in.readInt();
        int totalBuckets = in.readInt();
        int count = in.readInt();
        List<DataFile> files = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            files.add(
                    version >= 3
                            ? DataFileCodec.readFile(in)
                            : DataFileCodec.readFileWithoutContent(in));
        }
        return new TarnSplit(
                id,
                new Split(snapshotId, partition, bucket, totalBuckets, files, kind),
                fileIndex,
                rows);
    }
}
