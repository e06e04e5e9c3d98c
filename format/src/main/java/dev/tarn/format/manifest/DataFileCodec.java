package dev.tarn.format.manifest;

import dev.tarn.format.manifest.DataFile.ColumnStats;
import dev.tarn.format.manifest.DataFile.KeyRange;
import dev.tarn.format.manifest.DataFile.SequenceRange;
import dev.tarn.format.manifest.ManifestEntry.FileKind;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;

/**
 * Binary encoding of {@link DataFile}s, {@link Partition}s, whole {@link ManifestEntry}s and the
 * places of deletion vectors ({@link DeletionFile}), shared by manifests, by the commit messages
 * writers send to the committer and by the splits of reads (SPEC.md, "Manifest files"). A file is
 * written with its {@link FileContent}; forms written before the content was recorded (manifests of
 * version 1, older checkpoints) are read by deriving it from the file's name, here and nowhere
 * else.
 */
public final class DataFileCodec {

    /** Bound on a stored key's size: larger means a corrupt entry, not a real key. */
    private static final int MAX_KEY_BYTES = 16 * 1024 * 1024;

    static void writeEntry(DataOutput out, ManifestEntry entry) throws IOException {
        out.writeByte(entry.kind().code());
        writePartition(out, entry.partition());
        out.writeInt(entry.bucket());
        out.writeInt(entry.totalBuckets());
        writeFile(out, entry.file());
    }

    /**
     * @param withContent whether the entry's file records its content (manifests from version 2)
     */
    static ManifestEntry readEntry(DataInput in, boolean withContent) throws IOException {
        FileKind kind = FileKind.fromCode(in.readByte());
        Partition partition = readPartition(in);
        int bucket = in.readInt();
        int totalBuckets = in.readInt();
        return new ManifestEntry(kind, partition, bucket, totalBuckets, readFile(in, withContent));
    }

    public static void writePartition(DataOutput out, Partition partition) throws IOException {
        out.writeInt(partition.size());
        for (String value : partition.values()) {
            LengthPrefixed.writeNullableString(out, value);
        }
    }

    public static Partition readPartition(DataInput in) throws IOException {
        int size = in.readInt();
        if (size == 0) {
            return Partition.EMPTY;
        }
        List<String> values = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            values.add(LengthPrefixed.readNullableString(in));
        }
        return new Partition(values);
    }

    public static void writeFile(DataOutput out, DataFile file) throws IOException {
        LengthPrefixed.writeString(out, file.fileName());
        out.writeByte(file.content().code());
        out.writeLong(file.fileSize());
        out.writeLong(file.rowCount());
        out.writeInt(file.level());
        out.writeLong(file.schemaId());
        out.writeLong(file.sequence().min());
        out.writeLong(file.sequence().max());
        ColumnStats stats = file.valueStats();
        out.writeInt(stats.columnCount());
        for (int i = 0; i < stats.columnCount(); i++) {
            StatsValues.write(out, stats.min(i));
            StatsValues.write(out, stats.max(i));
            out.writeLong(stats.nullCount(i));
        }
        KeyRange keys = file.keyRange();
        out.writeBoolean(keys != null);
        if (keys != null) {
            writeBytes(out, keys.min());
            writeBytes(out, keys.max());
        }
    }

    /** Writes where a deletion vector lies, or that there is none. */
    public static void writeVector(DataOutput out, @Nullable DeletionFile vector)
            throws IOException {
        out.writeBoolean(vector != null);
        if (vector != null) {
            out.writeUTF(vector.indexFile());
            out.writeLong(vector.offset());
            out.writeLong(vector.length());
            out.writeLong(vector.cardinality());
        }
    }

    /**
     * Reads what {@link #writeVector} wrote.
     *
     * @throws IllegalArgumentException naming the index file and the values if they cannot be a
     *     vector's place (a corrupt form)
     */
    @Nullable
    public static DeletionFile readVector(DataInput in) throws IOException {
        if (!in.readBoolean()) {
            return null;
        }
        return new DeletionFile(in.readUTF(), in.readLong(), in.readLong(), in.readLong());
    }

    private static void writeBytes(DataOutput out, byte[] bytes) throws IOException {
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static byte[] readBytes(DataInput in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > MAX_KEY_BYTES) {
            throw new IOException("Invalid key length " + length + " in a data file entry");
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return bytes;
    }

    /** Reads a file as {@link #writeFile} writes it, with its content. */
    public static DataFile readFile(DataInput in) throws IOException {
        return readFile(in, true);
    }

    /**
     * Reads a file written before the content was recorded (as {@link #writeFile} without the
     * content byte), whose content its name tells.
     */
    public static DataFile readFileWithoutContent(DataInput in) throws IOException {
        return readFile(in, false);
    }

    private static DataFile readFile(DataInput in, boolean withContent) throws IOException {
        String name = LengthPrefixed.readString(in);
        FileContent content = withContent ? content(name, in.readByte()) : contentByName(name);
        long size = in.readLong();
        long rows = in.readLong();
        int level = in.readInt();
        long schemaId = in.readLong();
        SequenceRange sequence = new SequenceRange(in.readLong(), in.readLong());
        int columns = in.readInt();
        Object[] mins = new Object[columns];
        Object[] maxs = new Object[columns];
        long[] nulls = new long[columns];
        for (int i = 0; i < columns; i++) {
            mins[i] = StatsValues.read(in);
            maxs[i] = StatsValues.read(in);
            nulls[i] = in.readLong();
        }
        KeyRange keys = in.readBoolean() ? new KeyRange(readBytes(in), readBytes(in)) : null;
        return new DataFile(
                name,
                content,
                size,
                rows,
                level,
                schemaId,
                sequence,
                new ColumnStats(mins, maxs, nulls),
                keys);
    }

    private static FileContent content(String fileName, byte code) throws IOException {
        try {
            return FileContent.fromCode(code);
        } catch (IllegalArgumentException e) {
            throw new IOException("Data file " + fileName + ": " + e.getMessage(), e);
        }
    }

    /**
     * The content of a file recorded without one, by its name: writers before the content was
     * recorded named before-image files {@code before-}, changelog files {@code changelog-} and
     * data files {@code data-} (SPEC.md, "Manifest body").
     */
    private static FileContent contentByName(String fileName) {
        if (fileName.startsWith(FileContent.BEFORE_IMAGES.prefix())) {
            return FileContent.BEFORE_IMAGES;
        }
        if (fileName.startsWith(FileContent.CHANGELOG.prefix())) {
            return FileContent.CHANGELOG;
        }
        return FileContent.DATA;
    }

    private DataFileCodec() {}
}
