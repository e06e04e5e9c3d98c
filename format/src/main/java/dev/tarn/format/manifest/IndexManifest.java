package dev.tarn.format.manifest;

import dev.tarn.format.io.FileIO;
import dev.tarn.format.io.TablePaths;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import org.apache.flink.core.fs.Path;

/**
 * Index manifests, {@code <table>/manifest/index-manifest-<uuid>}: every deletion vector of one
 * snapshot's live files, one {@link IndexEntry} per data file that has one (SPEC.md, "Deletion
 * vectors"). A snapshot whose commit changed no vector names its base's index manifest again.
 */
public final class IndexManifest {

    static final byte[] MAGIC = "TRNX".getBytes(StandardCharsets.US_ASCII);
    static final int VERSION = 1;

    /** The prefix of index manifest names, which share {@code manifest/} with the others. */
    public static final String PREFIX = "index-manifest-";

    private final FileIO io;
    private final Path dir;

    public IndexManifest(FileIO io, TablePaths paths) {
        this.io = io;
        this.dir = paths.manifestDir();
    }

    public Path path(String fileName) {
        return new Path(dir, fileName);
    }

    /** Writes {@code entries} to a new index manifest and returns its name. */
    public String write(Collection<IndexEntry> entries) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(body);
        out.writeInt(entries.size());
        for (IndexEntry e : entries) {
            DataFileCodec.writePartition(out, e.partition());
            out.writeInt(e.bucket());
            LengthPrefixed.writeString(out, e.dataFile());
            DeletionFile v = e.vector();
            LengthPrefixed.writeString(out, v.indexFile());
            out.writeLong(v.offset());
            out.writeLong(v.length());
            out.writeLong(v.cardinality());
        }
        out.flush();
        String name = PREFIX + UUID.randomUUID();
        // A new, unique name: written whole or not at all, never partly visible.
        io.overwrite(path(name), MetadataFrame.frame(MAGIC, VERSION, body));
        return name;
    }

    /**
     * @throws UncheckedIOException naming the file if it is missing, truncated or corrupt
     */
    public List<IndexEntry> read(String fileName) {
        Path path = path(fileName);
        try {
            MetadataFrame.Body body =
                    MetadataFrame.unframe(io.readAllBytes(path), MAGIC, VERSION, path.toString());
            DataInputStream in = body.in();
            int count = in.readInt();
            List<IndexEntry> entries = new ArrayList<>(Math.max(0, Math.min(count, 1 << 16)));
            for (int i = 0; i < count; i++) {
                Partition partition = DataFileCodec.readPartition(in);
                int bucket = in.readInt();
                String dataFile = LengthPrefixed.readString(in);
                String indexFile = LengthPrefixed.readString(in);
                long offset = in.readLong();
                long length = in.readLong();
                long cardinality = in.readLong();
                try {
                    entries.add(
                            new IndexEntry(
                                    partition,
                                    bucket,
                                    dataFile,
                                    new DeletionFile(indexFile, offset, length, cardinality)));
                } catch (IllegalArgumentException e) {
                    throw new IOException(
                            "Corrupt metadata file "
                                    + path
                                    + ": entry "
                                    + i
                                    + " of data file "
                                    + dataFile
                                    + ": "
                                    + e.getMessage(),
                            e);
                }
            }
            return entries;
        } catch (FileNotFoundException e) {
            throw new UncheckedIOException("Index manifest " + path + " is missing", e);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot read index manifest " + path + ": " + e.getMessage(), e);
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
