package dev.tarn.format.commit;

import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.IndexEntry;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.ManifestEntry.FileKind;
import dev.tarn.format.manifest.ManifestFile;
import dev.tarn.format.manifest.ManifestList.ManifestFileMeta;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.Snapshot.CommitKind;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * One attempt of a commit, staged against a base snapshot: writes the manifest of its changes (or
 * takes one written once for all attempts), the base and delta manifest lists, and builds the next
 * snapshot, which {@link #publish} then tries to create. If the attempt does not end in a snapshot,
 * {@link #cleanUp} deletes the files it wrote: nothing else references them.
 */
final class CommitAttempt {

    /**
     * Who commits what: the fields every snapshot of one commit shares.
     *
     * @param watermark the writers' event-time watermark at the commit, or null if they have none
     */
    record Header(String user, long identifier, CommitKind kind, @Nullable Long watermark) {}

    private final TableContext table;
    @Nullable private final Snapshot base;
    private final List<String> manifestLists = new ArrayList<>();
    private final List<String> manifests = new ArrayList<>();
    @Nullable private String index;

    private final WrittenLists written;

    /**
     * @param base the latest snapshot when the attempt starts, or null for the first commit
     * @param written the lists this committer wrote, read from memory instead of the store
     */
    CommitAttempt(TableContext table, @Nullable Snapshot base, WrittenLists written) {
        this.table = table;
        this.base = base;
        this.written = written;
    }

    /** Writes the manifest of {@code delta} for this attempt alone; cleaned up with it. */
    ManifestFileMeta writeManifest(List<ManifestEntry> delta) throws IOException {
        ManifestFileMeta meta = table.manifestFile().write(delta, table.schema().id());
        manifests.add(meta.fileName());
        return meta;
    }

    /**
     * Writes the index manifest of {@code vectors}, the table's deletion vectors after the commit,
     * for this attempt alone; cleaned up with it. Null (no index manifest) when there are none.
     */
    @Nullable
    String writeIndex(Map<ManifestEntry.FileId, DeletionFile> vectors) throws IOException {
        if (vectors.isEmpty()) {
            return null;
        }
        List<IndexEntry> entries = new ArrayList<>(vectors.size());
        vectors.forEach(
                (id, v) ->
                        entries.add(new IndexEntry(id.partition(), id.bucket(), id.fileName(), v)));
        index = table.indexManifest().write(entries);
        return index;
    }

    /**
     * The snapshot after the base with {@code manifest} (holding {@code delta}) as its delta:
     * writes the base list (with small manifests merged once there are enough of them), the delta
     * list (empty without a manifest: a commit that only advances the watermark) and, for a commit
     * that stores changelog files, a changelog list of {@code changelog}. Its watermark is the
     * higher of the commit's and the base's (SPEC.md, "Snapshot files").
     */
    Snapshot stage(
            Header header,
            @Nullable ManifestFileMeta manifest,
            List<ManifestEntry> delta,
            @Nullable ManifestFileMeta changelog,
            @Nullable String indexManifest)
            throws IOException {
        List<ManifestFileMeta> baseManifests =
                base == null ? List.of() : mergeBase(written.manifests(table, base));
        String baseList = writeList(baseManifests);
        String deltaList = writeList(manifest == null ? List.of() : List.of(manifest));
        String changelogList = changelog == null ? null : writeList(List.of(changelog));
        return new Snapshot(
                base == null ? 1 : base.id() + 1,
                table.schema().id(),
                baseList,
                deltaList,
                new Snapshot.Commit(
                        header.user(),
                        header.identifier(),
                        header.kind(),
                        System.currentTimeMillis(),
                        watermarkAfter(header.watermark(), base)),
                records(delta),
                changelogList,
                indexManifest);
    }

    /**
     * The table's watermark after a commit with {@code watermark} on {@code base}: never lower than
     * the base's, so a commit without one (a compaction job's, a batch insert's) keeps it.
     */
    @Nullable
    static Long watermarkAfter(@Nullable Long watermark, @Nullable Snapshot base) {
        Long previous = base == null ? null : base.commit().watermark();
        if (watermark == null || (previous != null && previous >= watermark)) {
            return previous;
        }
        return watermark;
    }

    /** Whether {@code watermark} is above the table's at {@code latest}. */
    static boolean advances(@Nullable Long watermark, @Nullable Snapshot latest) {
        if (watermark == null) {
            return false;
        }
        Long current = latest == null ? null : latest.commit().watermark();
        return current == null || watermark > current;
    }

    /**
     * Creates the staged snapshot's file through the table's atomic publish step.
     *
     * @return false if another committer created that snapshot id first
     * @throws CommitStateUnknownException if the outcome is unknown: the file may exist and
     *     reference what this attempt wrote, so nothing may be cleaned up
     */
    boolean publish(Snapshot snapshot) {
        try {
            return table.snapshotManager().tryCommit(snapshot);
        } catch (IOException | RuntimeException e) {
            throw new CommitStateUnknownException(
                    String.format(
                            "Cannot tell whether snapshot %d of table %s was committed: %s",
                            snapshot.id(), table.name(), e.getMessage()),
                    e);
        }
    }

    void cleanUp() {
        manifestLists.forEach(written::remove);
        manifestLists.forEach(table.manifestList()::delete);
        manifests.forEach(table.manifestFile()::delete);
        if (index != null) {
            table.indexManifest().delete(index);
            index = null;
        }
        manifestLists.clear();
        manifests.clear();
    }

    private String writeList(List<ManifestFileMeta> metas) throws IOException {
        String name = table.manifestList().write(metas);
        manifestLists.add(name);
        written.put(name, metas);
        return name;
    }

    private List<ManifestFileMeta> mergeBase(List<ManifestFileMeta> metas) throws IOException {
        ManifestFile.Merged merged =
                table.manifestFile()
                        .mergeSmall(
                                metas,
                                table.config().commit().manifestMergeMinCount(),
                                table.config().commit().manifestTargetSize(),
                                table.schema().id());
        merged.written().forEach(m -> manifests.add(m.fileName()));
        return merged.manifests();
    }

    private Snapshot.RecordCounts records(List<ManifestEntry> delta) {
        long change = 0;
        for (ManifestEntry e : delta) {
            change += e.kind() == FileKind.ADD ? e.file().rowCount() : -e.file().rowCount();
        }
        long total = (base == null ? 0 : base.records().total()) + change;
        return new Snapshot.RecordCounts(total, change);
    }
}
