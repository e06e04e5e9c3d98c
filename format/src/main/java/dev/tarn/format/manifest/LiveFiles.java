package dev.tarn.format.manifest;

import dev.tarn.format.snapshot.Snapshot;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The files a snapshot holds: every ADD entry of its manifests (base, then delta, in order) not
 * cancelled by a later DELETE entry of the same file.
 */
public final class LiveFiles {

    public static Map<ManifestEntry.FileId, ManifestEntry> of(
            ManifestList lists, ManifestFile manifests, Snapshot snapshot) {
        Map<ManifestEntry.FileId, ManifestEntry> live = new LinkedHashMap<>();
        for (ManifestFileMeta meta : manifestsOf(lists, snapshot)) {
            apply(live, manifests.read(meta.fileName()));
        }
        return live;
    }

    public static List<ManifestFileMeta> manifestsOf(ManifestList lists, Snapshot snapshot) {
        List<ManifestFileMeta> metas = new ArrayList<>(lists.read(snapshot.baseManifestList()));
        metas.addAll(lists.read(snapshot.deltaManifestList()));
        return metas;
    }

    public static void apply(
            Map<ManifestEntry.FileId, ManifestEntry> live, List<ManifestEntry> entries) {
        for (ManifestEntry entry : entries) {
            if (entry.kind() == FileKind.ADD) {
                live.put(entry.fileId(), entry);
            } else {
                live.remove(entry.fileId());
            }
        }
    }

    private LiveFiles() {}
}
