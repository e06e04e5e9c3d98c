package dev.tarn.format.maintenance;

import dev.tarn.format.deletion.IndexFiles;
import dev.tarn.format.manifest.BucketId;
import dev.tarn.format.manifest.FileContent;
import dev.tarn.format.manifest.IndexEntry;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.ManifestFile;
import dev.tarn.format.manifest.ManifestList;
import dev.tarn.format.manifest.ManifestList.ManifestFileMeta;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.SnapshotReader;
import dev.tarn.format.table.TableContext;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.core.fs.Path;

/**
 * Every file the metadata of a set of root snapshots names: their manifest lists, the manifests
 * those name, and the data and changelog files of every entry (ADD or DELETE) of those manifests;
 * their index manifests and the index files of their deletion vectors. Snapshots share lists,
 * manifests and index manifests, so each is read once; manifests are read from their files, not the
 * cache, so a lost or damaged one shows. A list or manifest that cannot be read is recorded with
 * the reason, and what it names stays unknown. Files are keyed by their path relative to the table
 * directory ({@link TableFiles#key}).
 */
final class ReferencedFiles {

    /** What a named file is. */
    enum Kind {
        MANIFEST_LIST,
        MANIFEST,
        INDEX_MANIFEST,
        INDEX_FILE,
        DATA_FILE,
        CHANGELOG_FILE
    }

    /**
     * A file the metadata names, with the size and row count it records (-1 where it records none:
     * manifest lists have no recorded size, manifests no row count).
     */
    record Named(Path path, Kind kind, long size, long rows) {}

    /** One manifest entry, reduced to what liveness needs. */
    private record Ref(String key, boolean add) {}

    private final TableContext table;
    private final SnapshotReader reader;
    private final ManifestList lists;
    private final ManifestFile manifests;
    private final IndexFiles indexFiles;
    private final List<Snapshot> roots;
    private final Map<String, Named> named = new LinkedHashMap<>();
    private final Map<String, String> unreadable = new LinkedHashMap<>();
    private final Map<String, List<String>> manifestsOfList = new HashMap<>();
    private final Map<String, List<Ref>> entriesOfManifest = new HashMap<>();
    private final Map<String, List<IndexEntry>> vectorsOfIndexManifest = new HashMap<>();
    private final Map<BucketId, Path> bucketDirs = new HashMap<>();

    private ReferencedFiles(TableContext table, List<Snapshot> roots) {
        this.table = table;
        this.reader = table.snapshotReader();
        this.lists = table.manifestList();
        this.manifests = table.manifestFile();
        this.indexFiles = table.indexFiles();
        this.roots = roots;
    }

    /** Reads the metadata of {@code roots} (each list and manifest once). */
    static ReferencedFiles walk(TableContext table, List<Snapshot> roots) {
        ReferencedFiles files = new ReferencedFiles(table, roots);
        for (Snapshot s : roots) {
            files.visitList(s.baseManifestList());
            files.visitList(s.deltaManifestList());
            if (s.changelogManifestList() != null) {
                files.visitList(s.changelogManifestList());
            }
            if (s.indexManifest() != null) {
                files.visitIndexManifest(s);
            }
        }
        return files;
    }

    /** Every named file by key: the files cleanup must keep, and the check verifies. */
    Map<String, Named> named() {
        return Collections.unmodifiableMap(named);
    }

    /** The lists and manifests that could not be read, by key, with the reason. */
    Map<String, String> unreadable() {
        return Collections.unmodifiableMap(unreadable);
    }

    private void visitList(String name) {
        Path path = lists.path(name);
        String key = TableFiles.key(table.location(), path);
        if (named.putIfAbsent(key, new Named(path, Kind.MANIFEST_LIST, -1, -1)) != null) {
            return;
        }
        List<ManifestFileMeta> metas;
        try {
            metas = reader.manifestList(name);
        } catch (UncheckedIOException e) {
            unreadable.put(key, e.getMessage());
            return;
        }
        List<String> names = new ArrayList<>(metas.size());
        for (ManifestFileMeta meta : metas) {
            names.add(meta.fileName());
            visitManifest(meta);
        }
        manifestsOfList.put(name, names);
    }

    private void visitManifest(ManifestFileMeta meta) {
        Path path = manifests.path(meta.fileName());
        String key = TableFiles.key(table.location(), path);
        if (named.putIfAbsent(key, new Named(path, Kind.MANIFEST, meta.fileSize(), -1)) != null) {
            return;
        }
        List<ManifestEntry> entries;
        try {
            entries = reader.manifestFromFile(meta.fileName());
        } catch (UncheckedIOException e) {
            unreadable.put(key, e.getMessage());
            return;
        }
        List<Ref> refs = new ArrayList<>(entries.size());
        for (ManifestEntry e : entries) {
            Path dir = bucketDirs.computeIfAbsent(e.bucketId(), table::bucketPath);
            Path file = new Path(dir, e.file().fileName());
            String fileKey = TableFiles.key(table.location(), file);
            named.putIfAbsent(
                    fileKey,
                    new Named(
                            file,
                            kindOf(e.file().content()),
                            e.file().fileSize(),
                            e.file().rowCount()));
            refs.add(new Ref(fileKey, e.kind() == ManifestEntry.FileKind.ADD));
        }
        entriesOfManifest.put(meta.fileName(), refs);
    }

    private void visitIndexManifest(Snapshot s) {
        Path path = table.indexManifest().path(s.indexManifest());
        String key = TableFiles.key(table.location(), path);
        if (named.putIfAbsent(key, new Named(path, Kind.INDEX_MANIFEST, -1, -1)) != null) {
            return;
        }
        List<IndexEntry> entries;
        try {
            entries = reader.indexEntries(s);
        } catch (UncheckedIOException e) {
            unreadable.put(key, e.getMessage());
            return;
        }
        for (IndexEntry e : entries) {
            Path file = indexFiles.path(e.vector().indexFile());
            named.putIfAbsent(
                    TableFiles.key(table.location(), file),
                    new Named(file, Kind.INDEX_FILE, -1, -1));
        }
        vectorsOfIndexManifest.put(s.indexManifest(), entries);
    }

    /**
     * The deletion vectors of root {@code s}, as its index manifest lists them; none if it has no
     * index manifest or it could not be read.
     */
    List<IndexEntry> vectors(Snapshot s) {
        return s.indexManifest() == null
                ? List.of()
                : vectorsOfIndexManifest.getOrDefault(s.indexManifest(), List.of());
    }

    /**
     * The keys of the data files live in root {@code s} (SPEC.md, "Live files"), from the manifests
     * read: those of a manifest that could not be read are missing.
     */
    Set<String> liveDataFiles(Snapshot s) {
        Set<String> added = new HashSet<>();
        Set<String> deleted = new HashSet<>();
        for (String list : List.of(s.baseManifestList(), s.deltaManifestList())) {
            for (String manifest : manifestsOfList.getOrDefault(list, List.of())) {
                for (Ref ref : entriesOfManifest.getOrDefault(manifest, List.of())) {
                    (ref.add() ? added : deleted).add(ref.key());
                }
            }
        }
        added.removeAll(deleted);
        return added;
    }

    /** The key of the data file of {@code vector}. */
    String dataFileKey(IndexEntry vector) {
        Path dir =
                bucketDirs.computeIfAbsent(
                        new BucketId(vector.partition(), vector.bucket()), table::bucketPath);
        return TableFiles.key(table.location(), new Path(dir, vector.dataFile()));
    }

    /** The key of the index file of {@code vector}. */
    String indexFileKey(IndexEntry vector) {
        return TableFiles.key(table.location(), indexFiles.path(vector.vector().indexFile()));
    }

    /** What a file of {@code content} is, as the check reports it. */
    private static Kind kindOf(FileContent content) {
        return switch (content) {
            case DATA -> Kind.DATA_FILE;
            case CHANGELOG, BEFORE_IMAGES -> Kind.CHANGELOG_FILE;
        };
    }

    /**
     * For each of {@code keys}, the ids of the root snapshots that need it: a list or manifest is
     * needed by the snapshots that reach it; a data file by those it is live in (SPEC.md, "Live
     * files"); a changelog file by the snapshot that stored it; an index manifest by the snapshots
     * that name it, an index file by those whose index manifest names it. Costs one pass over the
     * entries of the manifests plus one over each root's manifest names and vectors, however many
     * snapshots share them.
     */
    Map<String, TreeSet<Long>> neededBy(Set<String> keys) {
        if (keys.isEmpty()) {
            return Map.of();
        }
        Map<String, List<Ref>> relevant = new HashMap<>();
        entriesOfManifest.forEach(
                (manifest, refs) -> {
                    List<Ref> hits = refs.stream().filter(r -> keys.contains(r.key())).toList();
                    if (!hits.isEmpty()) {
                        relevant.put(manifest, hits);
                    }
                });
        Map<String, TreeSet<Long>> needers = new HashMap<>();
        for (Snapshot s : roots) {
            visitVectorNeeds(s, keys, needers);
            Set<String> live = new HashSet<>();
            Set<String> deleted = new HashSet<>();
            visitNeeds(s, s.baseManifestList(), keys, relevant, live, deleted, needers);
            visitNeeds(s, s.deltaManifestList(), keys, relevant, live, deleted, needers);
            live.removeAll(deleted);
            if (s.changelogManifestList() != null) {
                visitNeeds(s, s.changelogManifestList(), keys, relevant, live, deleted, needers);
            }
            for (String key : live) {
                needers.computeIfAbsent(key, k -> new TreeSet<>()).add(s.id());
            }
        }
        return needers;
    }

    private void visitVectorNeeds(
            Snapshot s, Set<String> keys, Map<String, TreeSet<Long>> needers) {
        if (s.indexManifest() == null) {
            return;
        }
        String manifestKey =
                TableFiles.key(table.location(), table.indexManifest().path(s.indexManifest()));
        if (keys.contains(manifestKey)) {
            needers.computeIfAbsent(manifestKey, k -> new TreeSet<>()).add(s.id());
        }
        for (IndexEntry e : vectors(s)) {
            String key = indexFileKey(e);
            if (keys.contains(key)) {
                needers.computeIfAbsent(key, k -> new TreeSet<>()).add(s.id());
            }
        }
    }

    private void visitNeeds(
            Snapshot s,
            String list,
            Set<String> keys,
            Map<String, List<Ref>> relevant,
            Set<String> added,
            Set<String> deleted,
            Map<String, TreeSet<Long>> needers) {
        String listKey = TableFiles.key(table.location(), lists.path(list));
        if (keys.contains(listKey)) {
            needers.computeIfAbsent(listKey, k -> new TreeSet<>()).add(s.id());
        }
        for (String manifest : manifestsOfList.getOrDefault(list, List.of())) {
            String key = TableFiles.key(table.location(), manifests.path(manifest));
            if (keys.contains(key)) {
                needers.computeIfAbsent(key, k -> new TreeSet<>()).add(s.id());
            }
            for (Ref ref : relevant.getOrDefault(manifest, List.of())) {
                (ref.add() ? added : deleted).add(ref.key());
            }
        }
    }
}
