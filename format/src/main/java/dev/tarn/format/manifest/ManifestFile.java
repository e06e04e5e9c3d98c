package dev.tarn.format.manifest;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.io.TablePaths;
import dev.tarn.format.manifest.ManifestEntry.FileKind;
import dev.tarn.format.manifest.ManifestList.ManifestFileMeta;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.core.fs.Path;

/**
 * Manifest files, {@code <table>/manifest/manifest-<uuid>}: a framed list of {@link
 * ManifestEntry}s. Their names are unique and they are never rewritten, so a parsed manifest is
 * cached by path for every table in the process. Written in the newest version; every older one
 * still reads.
 */
public final class ManifestFile {

    static final byte[] MAGIC = "TRNM".getBytes(StandardCharsets.US_ASCII);

    /** Version 2 records each entry's file content (SPEC.md, "Manifest body"). */
    static final int VERSION = 2;

    /** The first version whose entries record their file's content; older ones derive it. */
    private static final int CONTENT_VERSION = 2;

    /** Bounded by entry count: a manifest entry with stats is a few hundred bytes on the heap. */
    private static final long CACHED_ENTRIES = 1_000_000;

    private static final Cache<String, List<ManifestEntry>> CACHE =
            Caffeine.newBuilder()
                    .maximumWeight(CACHED_ENTRIES)
                    .<String, List<ManifestEntry>>weigher((k, v) -> Math.max(1, v.size()))
                    .build();

    private final FileIO io;
    private final Path dir;

    public ManifestFile(FileIO io, TablePaths paths) {
        this.io = io;
        this.dir = paths.manifestDir();
    }

    public Path path(String fileName) {
        return new Path(dir, fileName);
    }

    public ManifestFileMeta write(List<ManifestEntry> entries, long schemaId) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(body);
        out.writeInt(entries.size());
        long added = 0;
        for (ManifestEntry entry : entries) {
            DataFileCodec.writeEntry(out, entry);
            added += entry.kind() == FileKind.ADD ? 1 : 0;
        }
        out.flush();
        byte[] bytes = MetadataFrame.frame(MAGIC, VERSION, body);
        String name = "manifest-" + UUID.randomUUID();
        // A new, unique name: written whole or not at all, never partly visible.
        io.overwrite(path(name), bytes);
        CACHE.put(path(name).toString(), List.copyOf(entries));
        return new ManifestFileMeta(name, bytes.length, added, entries.size() - added, schemaId);
    }

    /**
     * Manifests after merging small ones; {@code written} are the merged files just written (to
     * delete if the commit does not happen).
     */
    public record Merged(List<ManifestFileMeta> manifests, List<ManifestFileMeta> written) {}

    /**
     * Merges {@code metas}' small manifests into files of about {@code targetSize} once there are
     * {@code minCount} of them; otherwise returns them as they are. Any subset of manifests can be
     * merged (see the package overview), so the result holds the same live files.
     */
    public Merged mergeSmall(
            List<ManifestFileMeta> metas, int minCount, long targetSize, long schemaId)
            throws IOException {
        return new ManifestMerger(this, minCount, targetSize).merge(metas, schemaId);
    }

    /**
     * The live files of the manifests {@code metas} (SPEC.md, "Live files"): every file with an ADD
     * entry and no DELETE entry, in the order they were added.
     */
    public Map<ManifestEntry.FileId, ManifestEntry> liveFiles(List<ManifestFileMeta> metas) {
        return LiveFiles.of(this, metas);
    }

    /**
     * @throws UncheckedIOException naming the file if it is missing, truncated or corrupt
     */
    public List<ManifestEntry> read(String fileName) {
        Path path = path(fileName);
        return CACHE.get(path.toString(), key -> readUncached(path));
    }

    /**
     * As {@link #read}, but from the file itself, bypassing the cache: an integrity check must see
     * what is stored, not a copy parsed before the file was lost or damaged.
     *
     * @throws UncheckedIOException naming the file if it is missing, truncated or corrupt
     */
    public List<ManifestEntry> readFromFile(String fileName) {
        return readUncached(path(fileName));
    }

    private List<ManifestEntry> readUncached(Path path) {
        try {
            MetadataFrame.Body body =
                    MetadataFrame.unframe(io.readAllBytes(path), MAGIC, VERSION, path.toString());
            DataInputStream in = body.in();
            boolean withContent = body.version() >= CONTENT_VERSION;
            int count = in.readInt();
            List<ManifestEntry> entries = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                entries.add(DataFileCodec.readEntry(in, withContent));
            }
            return List.copyOf(entries);
        } catch (FileNotFoundException e) {
            throw new UncheckedIOException("Manifest file " + path + " is missing", e);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot read manifest file " + path + ": " + e.getMessage(), e);
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
