package dev.tarn.format.manifest;

import dev.tarn.format.manifest.ManifestEntry.FileKind;
import dev.tarn.format.manifest.ManifestList.ManifestFileMeta;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The files a snapshot holds: every file with an ADD entry in its manifests and no DELETE entry. A
 * file, once deleted, is never added again (names are unique), so the order of manifests does not
 * matter, and any subset of them can be merged into one (see {@link ManifestMerger}).
 */
final class LiveFiles {

    /** The live files of the manifests {@code metas}, in the order they were added. */
    static Map<ManifestEntry.FileId, ManifestEntry> of(
            ManifestFile manifests, List<ManifestFileMeta> metas) {
        Map<ManifestEntry.FileId, ManifestEntry> live = new LinkedHashMap<>();
        Map<ManifestEntry.FileId, ManifestEntry> deleted = new HashMap<>();
        for (ManifestFileMeta meta : metas) {
            apply(live, deleted, manifests.read(meta.fileName()));
        }
        return live;
    }

    /**
     * Applies {@code entries} to {@code live}; {@code deleted} collects DELETE entries whose ADD
     * has not been seen yet, so that the ADD, when it comes, is cancelled too.
     */
    static void apply(
            Map<ManifestEntry.FileId, ManifestEntry> live,
            Map<ManifestEntry.FileId, ManifestEntry> deleted,
            List<ManifestEntry> entries) {
        for (ManifestEntry entry : entries) {
            ManifestEntry.FileId id = entry.fileId();
            if (entry.kind() == FileKind.ADD) {
                if (deleted.remove(id) == null) {
                    live.put(id, entry);
                }
            } else if (live.remove(id) == null) {
                deleted.put(id, entry);
            }
        }
    }

    private LiveFiles() {}
}
