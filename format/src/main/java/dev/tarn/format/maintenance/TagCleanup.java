package dev.tarn.format.maintenance;

import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.ManifestEntry.FileId;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.SnapshotManager;
import dev.tarn.format.snapshot.Tags;
import dev.tarn.format.snapshot.Tags.Tag;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Deletes tags and the files only they kept (SPEC.md, "Tags"). A tag on a snapshot that still
 * exists kept nothing of its own: the snapshot's files are expiration's to delete. A tag on an
 * expired snapshot kept that snapshot's files; those that neither the earliest snapshot nor another
 * tag on an expired snapshot holds are deleted, data and index files first, then manifests, index
 * manifests and lists, and the tag file last, so that a crash leaves the tag to delete again.
 */
final class TagCleanup {

    private final TableContext table;
    private final Tags tags;
    private final SnapshotFiles files;

    TagCleanup(TableContext table) {
        this.table = table;
        this.tags = table.tags();
        this.files = new SnapshotFiles(table);
    }

    /** Deletes the tags whose retention has passed at {@code nowMillis}; returns how many. */
    int expire(long nowMillis) throws IOException {
        int deleted = 0;
        for (Tag tag : tags.list()) {
            if (tag.expiredAt(nowMillis)) {
                deleted += delete(tag) ? 1 : 0;
            }
        }
        return deleted;
    }

    /**
     * Deletes {@code tag} and the files only it kept.
     *
     * @return false if another deleter removed the tag first
     */
    boolean delete(Tag tag) throws IOException {
        SnapshotManager snapshots = table.snapshotManager();
        OptionalLong earliest = snapshots.earliestId();
        long id = tag.snapshot().id();
        List<Tag> others = tags.list().stream().filter(t -> !t.name().equals(tag.name())).toList();
        boolean shared = others.stream().anyMatch(t -> t.snapshot().id() == id);
        if (earliest.isPresent() && id < earliest.getAsLong() && !shared) {
            Snapshot first = snapshots.snapshot(earliest.getAsLong());
            Set<String> keepMetadata = new HashSet<>(files.metadata(first, false));
            Set<String> index = new HashSet<>(files.indexFiles(tag.snapshot(), true));
            index.removeAll(files.indexFiles(first, false));
            Map<FileId, ManifestEntry> data = files.liveLenient(tag.snapshot());
            data.keySet().removeAll(files.live(first).keySet());
            for (Tag other : others) {
                if (other.snapshot().id() < earliest.getAsLong()) {
                    keepMetadata.addAll(files.metadata(other.snapshot(), false));
                    index.removeAll(files.indexFiles(other.snapshot(), false));
                    data.keySet().removeAll(files.live(other.snapshot()).keySet());
                }
            }
            SnapshotFiles.addAll(data, files.changelog(tag.snapshot(), true));
            Set<String> metadata = new HashSet<>(files.metadata(tag.snapshot(), true));
            metadata.removeAll(keepMetadata);
            files.deleteData(data.values());
            files.deleteIndexFiles(index);
            files.deleteMetadata(metadata);
        }
        return tags.delete(tag.name());
    }
}
