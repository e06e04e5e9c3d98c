package dev.tarn.connector;

import dev.tarn.connector.source.split.TarnSplit;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DataFile.ColumnStats;
import dev.tarn.format.manifest.DataFile.KeyRange;
import dev.tarn.format.manifest.DataFile.SequenceRange;
import dev.tarn.format.manifest.DataFileCodec;
import dev.tarn.format.manifest.FileContent;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.SplitCodec;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Files of each content, and checkpointed bytes turned into older forms: the one from before splits
 * carried their event time, the one from before they carried deletion vectors (no flag after each
 * file), and the one from before files recorded their content (a file's size followed its name at
 * once).
 */
public final class ContentForms {

    private ContentForms() {}

    /** A file of {@code content} called {@code name}: a level-0 sorted run if it holds data. */
    public static DataFile file(String name, FileContent content) {
        boolean data = content == FileContent.DATA;
        return new DataFile(
                name,
                content,
                100,
                10,
                0,
                0,
                new SequenceRange(1, 10),
                ColumnStats.unknown(2),
                data ? new KeyRange(new byte[] {1}, new byte[] {2}) : null);
    }

    /**
     * {@code bytes} with {@code split}, a split without vectors, in the form from before splits
     * carried them: its files without the flag that says a file has no vector.
     */
    public static byte[] withoutVectors(byte[] bytes, Split split) throws IOException {
        ByteArrayOutputStream current = new ByteArrayOutputStream();
        SplitCodec.write(new DataOutputStream(current), split);
        ByteArrayOutputStream old = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(old);
        out.writeByte(split.kind().ordinal());
        out.writeLong(split.snapshotId());
        DataFileCodec.writePartition(out, split.partition());
        out.writeInt(split.bucket());
        out.writeInt(split.totalBuckets());
        out.writeInt(split.files().size());
        for (DataFile f : split.files()) {
            DataFileCodec.writeFile(out, f);
        }
        out.flush();
        byte[] part = current.toByteArray();
        int at = indexOf(bytes, part);
        if (at < 0) {
            throw new IllegalArgumentException("Split " + split + " is not in the bytes");
        }
        ByteArrayOutputStream result = new ByteArrayOutputStream();
        result.write(bytes, 0, at);
        result.write(old.toByteArray());
        result.write(bytes, at + part.length, bytes.length - at - part.length);
        return result.toByteArray();
    }

    /**
     * {@code bytes} with {@code split} in the form from before splits carried their event time: its
     * position not followed by the time.
     */
    public static byte[] withoutEventTime(byte[] bytes, TarnSplit split) throws IOException {
        return withoutHeaderEnd(bytes, split, false, Long.BYTES);
    }

    /**
     * {@code bytes} (holding {@code split} in its version 6 form) with the split in its version 5
     * form: without the byte that says whether its position counts filtered rows.
     */
    public static byte[] withoutFilterFlag(byte[] bytes, TarnSplit split) throws IOException {
        return withoutHeaderEnd(bytes, split, true, 1);
    }

    /**
     * {@code bytes} without the last {@code cut} bytes of {@code split}'s header: its id, position
     * and event time, then (if {@code flag}) its filter flag.
     */
    private static byte[] withoutHeaderEnd(byte[] bytes, TarnSplit split, boolean flag, int cut)
            throws IOException {
        ByteArrayOutputStream header = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(header);
        out.writeUTF(split.id());
        out.writeInt(split.fileIndex());
        out.writeLong(split.rowsInFile());
        out.writeLong(split.eventTime());
        if (flag) {
            out.writeBoolean(split.filtersRows());
        }
        out.flush();
        byte[] part = header.toByteArray();
        int at = indexOf(bytes, part);
        if (at < 0) {
            throw new IllegalArgumentException("Split " + split.id() + " is not in the bytes");
        }
        int from = at + part.length - cut;
        ByteArrayOutputStream result = new ByteArrayOutputStream();
        result.write(bytes, 0, from);
        result.write(bytes, from + cut, bytes.length - from - cut);
        return result.toByteArray();
    }

    /** {@code bytes} without the content byte after the name of each of {@code files}. */
    public static byte[] withoutContent(byte[] bytes, List<DataFile> files) {
        byte[] result = bytes;
        for (DataFile file : files) {
            byte[] name = file.fileName().getBytes(StandardCharsets.UTF_8);
            int at = indexOf(result, name);
            if (at < 0) {
                throw new IllegalArgumentException(file.fileName() + " is not in the bytes");
            }
            int content = at + name.length;
            ByteArrayOutputStream out = new ByteArrayOutputStream(result.length - 1);
            out.write(result, 0, content);
            out.write(result, content + 1, result.length - content - 1);
            result = out.toByteArray();
        }
        return result;
    }

    private static int indexOf(byte[] bytes, byte[] part) {
        for (int i = 0; i + part.length <= bytes.length; i++) {
            if (Arrays.equals(bytes, i, i + part.length, part, 0, part.length)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The version-4 bytes of a committable whose version-5 bytes are {@code v5}: each message
     * without the count of its vector changes (which must be none), as before version 5.
     */
    public static byte[] withoutVectorCounts(
            byte[] v5, dev.tarn.connector.sink.TarnCommittable committable) throws IOException {
        java.util.List<Integer> lengths = new java.util.ArrayList<>();
        int messages = 0;
        for (dev.tarn.format.write.CommitMessage m : committable.messages()) {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            dev.tarn.format.write.CommitMessageCodec.write(new java.io.DataOutputStream(out), m);
            lengths.add(out.size());
            messages += out.size();
        }
        int trailer = 1 + (committable.watermark() == null ? 0 : Long.BYTES);
        int header = v5.length - messages - trailer;
        java.io.ByteArrayOutputStream v4 = new java.io.ByteArrayOutputStream();
        v4.write(v5, 0, header);
        int at = header;
        for (int length : lengths) {
            v4.write(v5, at, length - Integer.BYTES);
            at += length;
        }
        v4.write(v5, at, trailer);
        return v4.toByteArray();
    }
}
