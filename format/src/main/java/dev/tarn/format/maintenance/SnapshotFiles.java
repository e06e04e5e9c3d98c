package dev.tarn.format.maintenance;

import dev.tarn.format.manifest.IndexEntry;
import dev.tarn.format.manifest.IndexManifest;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.ManifestEntry.FileId;
import dev.tarn.format.manifest.ManifestEntry.FileKind;
import dev.tarn.format.manifest.ManifestList;
import dev.tarn.format.manifest.ManifestList.ManifestFileMeta;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.SnapshotReader;
import dev.tarn.format.table.TableContext;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.flink.core.fs.Path;

/**
 * The files of snapshots, for deciding what expiration, tag deletion and rollback delete, and the
 * deleting itself. A snapshot's metadata are its manifest lists, the manifests they name and its
 * index manifest; its data files are its live files (SPEC.md, "Live files"); its changelog files
 * are its own; its index files are those its index manifest names. Reads of a snapshot that an
 * interrupted run already began to remove are "lenient": a list, manifest or index manifest that is
 * gone yields nothing, because a run deletes data and index files before manifests and index
 * manifests, and manifests before lists, so what a missing file named is gone too. Deleting a file
 * that is gone is no error.
 */
final class SnapshotFiles {

    private final TableContext table;
    private final SnapshotReader reader;
    private final ManifestList lists;

    /** The index files each index manifest read so far names: snapshots share index manifests. */
    private final Map<String, Set<String>> indexFilesOf = new HashMap<>();

    SnapshotFiles(TableContext table) {
        this.table = table;
        this.reader = table.snapshotReader();
        this.lists = table.manifestList();
    }

    /**
     * The names of {@code snapshot}'s manifest lists, of the manifests they name, and of its index
     * manifest.
     */
    Set<String> metadata(Snapshot snapshot, boolean lenient) {
        Set<String> names = new LinkedHashSet<>();
        List<String> own = new ArrayList<>();
        own.add(snapshot.baseManifestList());
        own.add(snapshot.deltaManifestList());
        if (snapshot.changelogManifestList() != null) {
            own.add(snapshot.changelogManifestList());
        }
        for (String list : own) {
            names.add(list);
            for (ManifestFileMeta meta :
                    read(() -> lists.read(list), lenient, List.<ManifestFileMeta>of())) {
                names.add(meta.fileName());
            }
        }
        if (snapshot.indexManifest() != null) {
            names.add(snapshot.indexManifest());
        }
        return names;
    }

    /** The names of the index files holding {@code snapshot}'s deletion vectors. */
    Set<String> indexFiles(Snapshot snapshot, boolean lenient) {
        String manifest = snapshot.indexManifest();
        if (manifest == null) {
            return Set.of();
        }
        Set<String> known = indexFilesOf.get(manifest);
        if (known != null) {
            return known;
        }
        Set<String> names = new LinkedHashSet<>();
        read(() -> reader.indexEntries(snapshot), lenient, List.<IndexEntry>of())
                .forEach(e -> names.add(e.vector().indexFile()));
        indexFilesOf.put(manifest, names);
        return names;
    }

    /** The live data files of {@code snapshot}. */
    Map<FileId, ManifestEntry> live(Snapshot snapshot) {
        return new LinkedHashMap<>(reader.liveFiles(snapshot));
    }

    /** As {@link #live}, but none if a manifest is gone (an interrupted run deleted its files). */
    Map<FileId, ManifestEntry> liveLenient(Snapshot snapshot) {
        return read(() -> live(snapshot), true, new LinkedHashMap<>());
    }

    /** The entries of {@code kind} of {@code snapshot}'s delta. */
    List<ManifestEntry> delta(Snapshot snapshot, FileKind kind, boolean lenient) {
        return read(() -> reader.delta(snapshot).entries(), lenient, List.<ManifestEntry>of())
                .stream()
                .filter(e -> e.kind() == kind)
                .toList();
    }

    /** The changelog files {@code snapshot} stored. */
    List<ManifestEntry> changelog(Snapshot snapshot, boolean lenient) {
        return read(() -> reader.changelog(snapshot), lenient, List.of());
    }

    /** Adds {@code entries} to {@code files} by file. */
    static void addAll(Map<FileId, ManifestEntry> files, Collection<ManifestEntry> entries) {
        entries.forEach(e -> files.put(e.fileId(), e));
    }

    static Map<FileId, ManifestEntry> byFile(Collection<ManifestEntry> entries) {
        Map<FileId, ManifestEntry> files = new LinkedHashMap<>();
        addAll(files, entries);
        return files;
    }

    /**
     * Deletes the data or changelog files of {@code entries}.
     *
     * @return how many were there to delete
     */
    int deleteData(Collection<ManifestEntry> entries) throws IOException {
        int deleted = 0;
        for (ManifestEntry e : entries) {
            Path path = new Path(table.bucketPath(e.partition(), e.bucket()), e.file().fileName());
            deleted += table.io().delete(path, false) ? 1 : 0;
        }
        return deleted;
    }

    /**
     * Deletes the index files of {@code names}.
     *
     * @return how many were there to delete
     */
    int deleteIndexFiles(Collection<String> names) throws IOException {
        int deleted = 0;
        for (String name : names) {
            deleted += table.io().delete(table.indexFiles().path(name), false) ? 1 : 0;
        }
        return deleted;
    }

    /**
     * Deletes the manifests and index manifests, then the manifest lists, of {@code names}, so that
     * a list that is gone means its manifests are gone (what {@link #metadata} relies on when
     * lenient).
     *
     * @return how many were there to delete
     */
    int deleteMetadata(Collection<String> names) throws IOException {
        int deleted = 0;
        for (boolean listsNow : new boolean[] {false, true}) {
            for (String name : names) {
                if (name.startsWith("manifest-list-") == listsNow) {
                    Path path =
                            name.startsWith(IndexManifest.PREFIX)
                                    ? table.indexManifest().path(name)
                                    : lists.path(name);
                    deleted += table.io().delete(path, false) ? 1 : 0;
                }
            }
        }
        return deleted;
    }

    private static <T> T read(Supplier<T> read, boolean lenient, T gone) {
        try {
            return read.get();
        } catch (UncheckedIOException e) {
            if (lenient && e.getCause() instanceof FileNotFoundException) {
                return gone;
            }
            throw e;
        }
    }
}
