package org.apache.iceberg;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.iceberg.io.FileIO;

/**
 * The live entries of Iceberg data manifests, kept in memory by location for every table of the
 * process, as Tarn keeps its own manifests: a commit that deletes files (a compaction) and the
 * merge of small manifests every hundred appends find the entries of the manifests they rewrite
 * here rather than opening and decoding each file again (about a millisecond apiece). A manifest's
 * location names one immutable file, so an entry never goes stale; one evicted or never seen is
 * read from its file. Filled as Tarn writes manifests (of format version 2: version 3 files get
 * their first row ids on read, by inheritance, so those are kept once read) and as it reads them.
 * Safe for concurrent use.
 */
public final class TarnManifestEntries {

    /**
     * A live entry of a data manifest as a reader of the manifest finds it, its sequence numbers
     * inherited.
     */
    public record Live(
            DataFile file, long snapshotId, long dataSequence, @Nullable Long fileSequence) {}

    /** Bounded by entry count: an entry with its column statistics is about a kilobyte. */
    private static final long CACHED_ENTRIES = 200_000;

    private static final Cache<String, List<Live>> CACHE =
            Caffeine.newBuilder()
                    .maximumWeight(CACHED_ENTRIES)
                    .<String, List<Live>>weigher((k, v) -> Math.max(1, v.size()))
                    .build();

    private TarnManifestEntries() {}

    /**
     * Keeps the entries of {@code manifest}, which Tarn just wrote with {@code added} (in order) as
     * the files its snapshot added: their snapshot is the manifest's, and their sequence numbers
     * that snapshot's id, as the manifest list assigns them (Tarn's sequence numbers are its
     * snapshot ids). Only for format version 2 (see the class comment).
     */
    static void added(int formatVersion, ManifestFile manifest, List<DataFile> added) {
        if (formatVersion >= 3) {
            return;
        }
        long snapshot = manifest.snapshotId();
        List<Live> live = new ArrayList<>(added.size());
        for (DataFile f : added) {
            live.add(new Live(f, snapshot, snapshot, snapshot));
        }
        CACHE.put(manifest.path(), List.copyOf(live));
    }

    /** Keeps the live entries of {@code manifest}, which Tarn just wrote with them, in order. */
    static void written(ManifestFile manifest, List<Live> live) {
        CACHE.put(manifest.path(), List.copyOf(live));
    }

    /** The live entries of data manifest {@code manifest}: kept, or read from its file and kept. */
    static List<Live> live(ManifestFile manifest, FileIO io, Map<Integer, PartitionSpec> specs)
            throws IOException {
        List<Live> kept = CACHE.getIfPresent(manifest.path());
        if (kept != null) {
            return kept;
        }
        List<Live> live = new ArrayList<>();
        try (ManifestReader<DataFile> reader = ManifestFiles.read(manifest, io, specs)) {
            for (ManifestEntry<DataFile> entry : reader.liveEntries()) {
                live.add(
                        new Live(
                                entry.file().copy(),
                                entry.snapshotId(),
                                entry.dataSequenceNumber(),
                                entry.fileSequenceNumber()));
            }
        }
        kept = List.copyOf(live);
        CACHE.put(manifest.path(), kept);
        return kept;
    }

    /** Forgets every entry kept: for tests that measure or check reads from the files. */
    public static void clear() {
        CACHE.invalidateAll();
    }
}
