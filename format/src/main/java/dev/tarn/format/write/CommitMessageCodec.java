package dev.tarn.format.write;

import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DataFileCodec;
import dev.tarn.format.manifest.Partition;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Binary form of {@link CommitMessage}s, for Flink's checkpointed committables. {@link #write}
 * writes the current form, with changelog files; {@link #readWithoutChangelog} reads the form
 * committables of version 1 hold.
 */
public final class CommitMessageCodec {

    public static void write(DataOutput out, CommitMessage message) throws IOException {
        DataFileCodec.writePartition(out, message.partition());
        out.writeInt(message.bucket());
        out.writeInt(message.totalBuckets());
        writeFiles(out, message.newFiles());
        writeFiles(out, message.deletedFiles());
        writeFiles(out, message.changelogFiles());
    }

    public static CommitMessage read(DataInput in) throws IOException {
        return readWithoutChangelog(in).withChangelog(readFiles(in));
    }

    public static CommitMessage readWithoutChangelog(DataInput in) throws IOException {
        Partition partition = DataFileCodec.readPartition(in);
        int bucket = in.readInt();
        int totalBuckets = in.readInt();
        return new CommitMessage(partition, bucket, totalBuckets, readFiles(in), readFiles(in));
    }

    private static void writeFiles(DataOutput out, List<DataFile> files) throws IOException {
        out.writeInt(files.size());
        for (DataFile file : files) {
            DataFileCodec.writeFile(out, file);
        }
    }

    private static List<DataFile> readFiles(DataInput in) throws IOException {
        int count = in.readInt();
        List<DataFile> files = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            files.add(DataFileCodec.readFile(in));
        }
        return files;
    }

    private CommitMessageCodec() {}
}
