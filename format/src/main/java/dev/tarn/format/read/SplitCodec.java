package dev.tarn.format.read;

import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DataFileCodec;
import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.Partition;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Binary form of a {@link Split}, for Flink's checkpointed splits and the messages that carry them
 * to readers; beside {@code CommitMessageCodec}, so a change to how files are written changes both.
 * {@link #write} writes the current form: the kind, then the body, each file followed by its
 * deletion vector or that it has none. {@link #readWithoutVectors} reads the form from before
 * splits carried vectors; {@link #readWithoutContent} the forms from before files recorded their
 * content (whose names tell it), with a kind or from before splits had one (all of them {@link
 * Split.Kind#SNAPSHOT}).
 */
public final class SplitCodec {

    private SplitCodec() {}

    public static void write(DataOutput out, Split split) throws IOException {
        out.writeByte(split.kind().ordinal());
        out.writeLong(split.snapshotId());
        DataFileCodec.writePartition(out, split.partition());
        out.writeInt(split.bucket());
        out.writeInt(split.totalBuckets());
        out.writeInt(split.files().size());
        for (DataFile f : split.files()) {
            DataFileCodec.writeFile(out, f);
            DataFileCodec.writeVector(out, split.vector(f));
        }
    }

    /**
     * @throws IOException naming {@code id} (how the caller names the split) if the kind is unknown
     */
    public static Split read(DataInput in, String id) throws IOException {
        return readBody(in, readKind(in, id), Form.CURRENT);
    }

    /** Reads a split written before splits carried deletion vectors: it has none. */
    public static Split readWithoutVectors(DataInput in, String id) throws IOException {
        return readBody(in, readKind(in, id), Form.WITHOUT_VECTORS);
    }

    /**
     * @param withKind whether the split has a kind; without one it is {@link Split.Kind#SNAPSHOT}
     */
    public static Split readWithoutContent(DataInput in, String id, boolean withKind)
            throws IOException {
        return readBody(
                in, withKind ? readKind(in, id) : Split.Kind.SNAPSHOT, Form.WITHOUT_CONTENT);
    }

    /** The forms of a split's files, newest first. */
    private enum Form {
        CURRENT,
        WITHOUT_VECTORS,
        WITHOUT_CONTENT
    }

    private static Split.Kind readKind(DataInput in, String id) throws IOException {
        int ordinal = in.readByte();
        if (ordinal < 0 || ordinal >= Split.Kind.values().length) {
            throw new IOException("Corrupt Tarn split " + id + ": unknown kind " + ordinal);
        }
        return Split.Kind.values()[ordinal];
    }

    private static Split readBody(DataInput in, Split.Kind kind, Form form) throws IOException {
        long snapshotId = in.readLong();
        Partition partition = DataFileCodec.readPartition(in);
        int bucket = in.readInt();
        int totalBuckets = in.readInt();
        int count = in.readInt();
        List<DataFile> files = new ArrayList<>(count);
        Map<String, DeletionFile> vectors = new HashMap<>();
        for (int i = 0; i < count; i++) {
            DataFile file =
                    form == Form.WITHOUT_CONTENT
                            ? DataFileCodec.readFileWithoutContent(in)
                            : DataFileCodec.readFile(in);
            files.add(file);
            DeletionFile vector = form == Form.CURRENT ? DataFileCodec.readVector(in) : null;
            if (vector != null) {
                vectors.put(file.fileName(), vector);
            }
        }
        return new Split(snapshotId, partition, bucket, totalBuckets, files, kind, vectors);
    }
}
