package dev.tarn.format.write;

import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DataFileCodec;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.manifest.VectorChange;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Binary form of {@link CommitMessage}s, for Flink's checkpointed committables. {@link #write}
 * writes the current form, with changelog files, each file's content and the changes of deletion
 * vectors; {@link #readWithoutVectors} reads the form before those; {@link #readWithoutContent}
 * reads the form before files recorded their content, {@link #readWithoutChangelog} the first form,
 * which had no changelog files either.
 */
public final class CommitMessageCodec {

    public static void write(DataOutput out, CommitMessage message) throws IOException {
        DataFileCodec.writePartition(out, message.partition());
        out.writeInt(message.bucket());
        out.writeInt(message.totalBuckets());
        writeFiles(out, message.newFiles());
        writeFiles(out, message.deletedFiles());
        writeFiles(out, message.changelogFiles());
        out.writeInt(message.vectors().size());
        for (VectorChange change : message.vectors()) {
            out.writeUTF(change.dataFile());
            DataFileCodec.writeVector(out, change.before());
            DataFileCodec.writeVector(out, change.after());
        }
    }

    /** Reads a message as {@link #write} writes it. */
    public static CommitMessage read(DataInput in) throws IOException {
        CommitMessage message = read(in, true, true);
        int count = in.readInt();
        List<VectorChange> vectors = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            vectors.add(
                    new VectorChange(
                            in.readUTF(),
                            DataFileCodec.readVector(in),
                            DataFileCodec.readVector(in)));
        }
        return message.withVectors(vectors);
    }

    /** Reads a message with changelog files and file contents, before vectors were recorded. */
    public static CommitMessage readWithoutVectors(DataInput in) throws IOException {
        return read(in, true, true);
    }

    /** Reads a message with changelog files whose files do not record their content. */
    public static CommitMessage readWithoutContent(DataInput in) throws IOException {
        return read(in, true, false);
    }

    /** Reads a message of the first form: no changelog files, no file content. */
    public static CommitMessage readWithoutChangelog(DataInput in) throws IOException {
        return read(in, false, false);
    }

    private static CommitMessage read(DataInput in, boolean changelog, boolean content)
            throws IOException {
        Partition partition = DataFileCodec.readPartition(in);
        int bucket = in.readInt();
        int totalBuckets = in.readInt();
        List<DataFile> newFiles = readFiles(in, content);
        List<DataFile> deletedFiles = readFiles(in, content);
        List<DataFile> changelogFiles = changelog ? readFiles(in, content) : List.of();
        return new CommitMessage(
                partition, bucket, totalBuckets, newFiles, deletedFiles, changelogFiles);
    }

    private static void writeFiles(DataOutput out, List<DataFile> files) throws IOException {
        out.writeInt(files.size());
        for (DataFile file : files) {
            DataFileCodec.writeFile(out, file);
        }
    }

    private static List<DataFile> readFiles(DataInput in, boolean content) throws IOException {
        int count = in.readInt();
        List<DataFile> files = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            files.add(
                    content
                            ? DataFileCodec.readFile(in)
                            : DataFileCodec.readFileWithoutContent(in));
        }
        return files;
    }

    private CommitMessageCodec() {}
}
