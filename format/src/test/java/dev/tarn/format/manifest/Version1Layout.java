package dev.tarn.format.manifest;

import dev.tarn.format.manifest.DataFile.ColumnStats;
import dev.tarn.format.manifest.DataFile.KeyRange;
import java.io.ByteArrayOutputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;

/**
 * Manifests and data files in the layout writers of manifest version 1 wrote, field by field
 * (SPEC.md, "Manifest body"): no file records its content. The fixture of the tests that old tables
 * still read.
 */
public final class Version1Layout {

    private Version1Layout() {}

    /** A whole manifest of version 1: the frame around a count and the entries. */
    public static byte[] manifest(List<ManifestEntry> entries) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(body);
        out.writeInt(entries.size());
        for (ManifestEntry e : entries) {
            out.writeByte(e.kind().code());
            DataFileCodec.writePartition(out, e.partition());
            out.writeInt(e.bucket());
            out.writeInt(e.totalBuckets());
            writeFile(out, e.file());
        }
        out.flush();
        return MetadataFrame.frame(ManifestFile.MAGIC, 1, body);
    }

    /** A data file as version 1 wrote it: its name, then at once its size. */
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
            LengthPrefixed.writeBytes(out, keys.min());
            LengthPrefixed.writeBytes(out, keys.max());
        }
    }
}
