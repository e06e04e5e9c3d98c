package dev.tarn.format.manifest;

import dev.tarn.format.io.FileIO;
import dev.tarn.format.io.TablePaths;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.flink.core.fs.Path;

/**
 * Manifest lists, {@code <table>/manifest/manifest-list-<uuid>}: the manifests that make up one
 * half (base or delta) of a snapshot.
 */
public final class ManifestList {

    /** A manifest file as its manifest list records it. */
    public record ManifestFileMeta(
            String fileName, long fileSize, long addedFiles, long deletedFiles, long schemaId)
            implements Serializable {}

    static final byte[] MAGIC = "TRNL".getBytes(StandardCharsets.US_ASCII);
    static final int VERSION = 1;

    private final FileIO io;
    private final Path dir;

    public ManifestList(FileIO io, TablePaths paths) {
        this.io = io;
        this.dir = paths.manifestDir();
    }

    public Path path(String fileName) {
        return new Path(dir, fileName);
    }

    public String write(List<ManifestFileMeta> metas) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(body);
        out.writeInt(metas.size());
        for (ManifestFileMeta meta : metas) {
            LengthPrefixed.writeString(out, meta.fileName());
            out.writeLong(meta.fileSize());
            out.writeLong(meta.addedFiles());
            out.writeLong(meta.deletedFiles());
            out.writeLong(meta.schemaId());
        }
        out.flush();
        String name = "manifest-list-" + UUID.randomUUID();
        // A new, unique name: written whole or not at all, never partly visible.
        io.overwrite(path(name), MetadataFrame.frame(MAGIC, VERSION, body));
        return name;
    }

    /**
     * @throws UncheckedIOException naming the file if it is missing, truncated or corrupt
     */
    public List<ManifestFileMeta> read(String fileName) {
        Path path = path(fileName);
        try {
            MetadataFrame.Body body =
                    MetadataFrame.unframe(io.readAllBytes(path), MAGIC, VERSION, path.toString());
            DataInputStream in = body.in();
            int count = in.readInt();
            List<ManifestFileMeta> metas = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                metas.add(
                        new ManifestFileMeta(
                                LengthPrefixed.readString(in),
                                in.readLong(),
                                in.readLong(),
                                in.readLong(),
                                in.readLong()));
            }
            return metas;
        } catch (FileNotFoundException e) {
            throw new UncheckedIOException("Manifest list " + path + " is missing", e);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot read manifest list " + path + ": " + e.getMessage(), e);
        }
    }

    public void delete(String fileName) {
        try {
            io.delete(path(fileName), false);
        } catch (IOException ignored) {
            // Unreferenced metadata; orphan cleanup removes what is left.
        }
    }
}
