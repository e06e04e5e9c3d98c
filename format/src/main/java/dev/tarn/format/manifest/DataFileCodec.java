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

/**
 * Binary encoding of {@link DataFile}s, {@link Partition}s and whole {@link ManifestEntry}s, shared
 * by manifests and by the commit messages writers send to the committer (SPEC.md, "Manifest
 * files").
 */
public final class DataFileCodec {

    /** Bound on a stored key's size: larger means a corrupt entry, not a real key. */
    private static final int MAX_KEY_BYTES = 16 * 1024 * 1024;

    public static void writeEntry(DataOutput out, ManifestEntry entry) throws IOException {
        out.writeByte(entry.kind().code());
        writePartition(out, entry.partition());
        out.writeInt(entry.bucket());
        out.writeInt(entry.totalBuckets());
        writeFile(out, entry.file());
    }

    public static ManifestEntry readEntry(DataInput in) throws IOException {
        FileKind kind = FileKind.fromCode(in.readByte());
        Partition partition = readPartition(in);
        int bucket = in.readInt();
        int totalBuckets = in.readInt();
        return new ManifestEntry(kind, partition, bucket, totalBuckets, readFile(in));
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

    public static DataFile readFile(DataInput in) throws IOException {
        String name = LengthPrefixed.readString(in);
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
                size,
                rows,
                level,
                schemaId,
                sequence,
                new ColumnStats(mins, maxs, nulls),
                keys);
    }

    private DataFileCodec() {}
}
