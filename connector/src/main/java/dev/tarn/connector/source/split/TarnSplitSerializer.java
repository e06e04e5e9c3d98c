package dev.tarn.connector.source.split;

import dev.tarn.format.read.Split;
import dev.tarn.format.read.SplitCodec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import org.apache.flink.api.common.eventtime.TimestampAssigner;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Versioned binary form of {@link TarnSplit}, kept in checkpoints and sent to readers: its id, the
 * reader's position in it and its event time, then the {@link Split} in the format's {@link
 * SplitCodec}. Version 2 added the split's kind and the position as file and rows in it; version 3
 * each file's content; version 4 each file's deletion vector; version 5 the event time (the commit
 * time of the split's snapshot). Version 1 splits (whole snapshots, with a count of rows emitted),
 * version 2 splits (whose files' content their names tell), version 3 splits (without vectors) and
 * version 4 splits are still read, without an event time.
 */
public final class TarnSplitSerializer implements SimpleVersionedSerializer<TarnSplit> {

    static final int VERSION = 6;
    private static final List<Integer> SUPPORTED = List.of(1, 2, 3, 4, 5, 6);

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

    public static void write(DataOutput out, TarnSplit split) throws IOException {
        out.writeUTF(split.id());
        out.writeInt(split.fileIndex());
        out.writeLong(split.rowsInFile());
        out.writeLong(split.eventTime());
        out.writeBoolean(split.filtersRows());
        SplitCodec.write(out, split.split());
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

    public static TarnSplit read(int version, DataInput in) throws IOException {
        String id = in.readUTF();
        // Version 1 counted the rows emitted from the whole split: file -1 says so.
        int fileIndex = version == 1 ? -1 : in.readInt();
        long rows = in.readLong();
        long eventTime = version >= 5 ? in.readLong() : TimestampAssigner.NO_TIMESTAMP;
        // Before version 6 a position counted every row the file's reader returned.
        boolean filtersRows = version >= 6 ? in.readBoolean() : fileIndex == 0 && rows == 0;
        Split split =
                switch (version) {
                    case 1, 2 -> SplitCodec.readWithoutContent(in, id, version == 2);
                    case 3 -> SplitCodec.readWithoutVectors(in, id);
                    default -> SplitCodec.read(in, id);
                };
        return new TarnSplit(id, split, fileIndex, rows, eventTime, filtersRows);
    }
}
