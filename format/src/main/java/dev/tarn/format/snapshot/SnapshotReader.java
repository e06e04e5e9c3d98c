package dev.tarn.format.snapshot;

import dev.tarn.format.manifest.BucketId;
import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.IndexEntry;
import dev.tarn.format.manifest.IndexManifest;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.ManifestEntry.FileKind;
import dev.tarn.format.manifest.ManifestFile;
import dev.tarn.format.manifest.ManifestList;
import dev.tarn.format.manifest.ManifestList.ManifestFileMeta;
import dev.tarn.format.manifest.Partition;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * What a snapshot holds, for everything that asks: the latest snapshot or one by id, its live files
 * (all, by bucket, or its partitions), and its delta, the files that one snapshot added and
 * removed. Scans, writers starting or following their buckets, compaction, the catalog and the
 * commit itself read snapshots only through here, so a fix or a cache lands once. Snapshots and
 * manifests never change once written; concurrent commits only add newer snapshots.
 */
public final class SnapshotReader {

    /** The changes one snapshot made: the entries of its own (delta) manifests, in order. */
    public record Delta(Snapshot snapshot, List<ManifestEntry> entries) {

        public List<ManifestEntry> added() {
            return entries.stream().filter(e -> e.kind() == FileKind.ADD).toList();
        }

        public List<ManifestEntry> deleted() {
            return entries.stream().filter(e -> e.kind() == FileKind.DELETE).toList();
        }
    }

    private final SnapshotManager snapshots;
    private final ManifestList lists;
    private final ManifestFile manifests;
    private final IndexManifest indexes;

    public SnapshotReader(
            SnapshotManager snapshots,
            ManifestList lists,
            ManifestFile manifests,
            IndexManifest indexes) {
        this.snapshots = snapshots;
        this.lists = lists;
        this.manifests = manifests;
        this.indexes = indexes;
    }

    /** The newest snapshot, if the table has one. */
    public Optional<Snapshot> latest() {
        OptionalLong id = snapshots.latestId();
        return id.isPresent() ? Optional.of(snapshots.snapshot(id.getAsLong())) : Optional.empty();
    }

    /**
     * @throws IllegalArgumentException naming the table and the id if there is no such snapshot
     */
    public Snapshot snapshot(long id) {
        return snapshots.snapshot(id);
    }

    /** Every manifest of {@code snapshot}: those of its base, then its delta. */
    public List<ManifestFileMeta> manifests(Snapshot snapshot) {
        List<ManifestFileMeta> metas = new ArrayList<>(lists.read(snapshot.baseManifestList()));
        metas.addAll(lists.read(snapshot.deltaManifestList()));
        return metas;
    }

    /** The live files of {@code snapshot} (SPEC.md, "Live files"), by file. */
    public Map<ManifestEntry.FileId, ManifestEntry> liveFiles(Snapshot snapshot) {
        return liveFiles(manifests(snapshot));
    }

    /**
     * The live files of the snapshot whose manifests are {@code metas} (as {@link #manifests} gives
     * them), for a caller that has its lists already: a committer building on its own last
     * snapshot.
     */
    public Map<ManifestEntry.FileId, ManifestEntry> liveFiles(List<ManifestFileMeta> metas) {
        return manifests.liveFiles(metas);
    }

    /**
     * The deletion vectors of {@code snapshot}'s live files, by data file (SPEC.md, "Deletion
     * vectors"); empty for a snapshot without an index manifest.
     *
     * @throws java.io.UncheckedIOException naming the index manifest if it is missing or corrupt
     */
    public Map<ManifestEntry.FileId, DeletionFile> vectors(Snapshot snapshot) {
        if (snapshot.indexManifest() == null) {
            return Map.of();
        }
        Map<ManifestEntry.FileId, DeletionFile> vectors = new LinkedHashMap<>();
        for (IndexEntry e : indexes.read(snapshot.indexManifest())) {
            vectors.put(e.fileId(), e.vector());
        }
        return vectors;
    }

    /** The entries of {@code snapshot}'s index manifest, in order; none without one. */
    public List<IndexEntry> indexEntries(Snapshot snapshot) {
        return snapshot.indexManifest() == null
                ? List.of()
                : indexes.read(snapshot.indexManifest());
    }

    /** The live files of {@code snapshot}, grouped by bucket in the order they were added. */
    public Map<BucketId, List<ManifestEntry>> filesByBucket(Snapshot snapshot) {
        return filesByBucket(manifests(snapshot));
    }

    /**
     * The live files of the manifests {@code metas} (every manifest of one snapshot, as {@link
     * #manifests} lists them), grouped by bucket in the order they were added: for a scan that
     * counts the manifests it reads.
     */
    public Map<BucketId, List<ManifestEntry>> filesByBucket(List<ManifestFileMeta> metas) {
        return byBucket(manifests.liveFiles(metas).values());
    }

    /** The partitions that hold at least one live file of {@code snapshot}. */
    public Set<Partition> partitions(Snapshot snapshot) {
        Set<Partition> partitions = new LinkedHashSet<>();
        for (ManifestEntry e : liveFiles(snapshot).values()) {
            partitions.add(e.partition());
        }
        return partitions;
    }

    /** The files {@code snapshot} itself added and removed: its delta manifests only. */
    public Delta delta(Snapshot snapshot) {
        return new Delta(snapshot, entries(deltaManifests(snapshot)));
    }

    /** The manifests of {@code snapshot}'s delta, the files it added and removed. */
    public List<ManifestFileMeta> deltaManifests(Snapshot snapshot) {
        return lists.read(snapshot.deltaManifestList());
    }

    /**
     * The changelog files {@code snapshot} stored for streaming reads (SPEC.md, "Changelog files"),
     * in the order they were written; none for a snapshot without a changelog manifest list.
     */
    public List<ManifestEntry> changelog(Snapshot snapshot) {
        return entries(changelogManifests(snapshot));
    }

    /** The manifests of {@code snapshot}'s changelog files; none without a changelog list. */
    public List<ManifestFileMeta> changelogManifests(Snapshot snapshot) {
        if (snapshot.changelogManifestList() == null) {
            return List.of();
        }
        return lists.read(snapshot.changelogManifestList());
    }

    /**
     * The entries of the manifests {@code metas}, in order: for a scan that counts the manifests it
     * reads ({@link #deltaManifests}, {@link #changelogManifests}).
     */
    public List<ManifestEntry> entries(List<ManifestFileMeta> metas) {
        List<ManifestEntry> entries = new ArrayList<>();
        for (ManifestFileMeta meta : metas) {
            entries.addAll(manifests.read(meta.fileName()));
        }
        return entries;
    }

    /** Whether snapshot {@code id} exists (it may have been expired). */
    public boolean exists(long id) {
        return snapshots.exists(id);
    }

    /**
     * The manifests a manifest list names, for maintenance that walks every list of many snapshots
     * once (snapshots share lists and manifests).
     *
     * @throws java.io.UncheckedIOException naming the list if it is missing or corrupt
     */
    public List<ManifestFileMeta> manifestList(String listName) {
        return lists.read(listName);
    }

    /**
     * The entries of one manifest, read from the file itself rather than the cache, so that a lost
     * or damaged manifest shows.
     *
     * @throws java.io.UncheckedIOException naming the manifest if it is missing or corrupt
     */
    public List<ManifestEntry> manifestFromFile(String manifestName) {
        return manifests.readFromFile(manifestName);
    }

    private static Map<BucketId, List<ManifestEntry>> byBucket(Collection<ManifestEntry> entries) {
        Map<BucketId, List<ManifestEntry>> byBucket = new LinkedHashMap<>();
        for (ManifestEntry e : entries) {
            byBucket.computeIfAbsent(e.bucketId(), b -> new ArrayList<>()).add(e);
        }
        return byBucket;
    }
}
