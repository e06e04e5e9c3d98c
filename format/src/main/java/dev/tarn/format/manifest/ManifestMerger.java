package dev.tarn.format.manifest;

import dev.tarn.format.manifest.ManifestList.ManifestFileMeta;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps the number of manifests of a snapshot bounded, so that committing and planning do not slow
 * down as snapshots accumulate. Once {@code minCount} manifests are smaller than the target size,
 * they are rewritten into as few manifests of about the target size as their live entries need:
 * pairs of ADD and DELETE of one file cancel out. Large manifests are left as they are, so a merge
 * rewrites only recent, small metadata.
 */
final class ManifestMerger {

    private final ManifestFile manifests;
    private final int minCount;
    private final long targetSize;

    ManifestMerger(ManifestFile manifests, int minCount, long targetSize) {
        this.manifests = manifests;
        this.minCount = minCount;
        this.targetSize = targetSize;
    }

    ManifestFile.Merged merge(List<ManifestFileMeta> metas, long schemaId) throws IOException {
        List<ManifestFileMeta> small = new ArrayList<>();
        List<ManifestFileMeta> kept = new ArrayList<>();
        for (ManifestFileMeta meta : metas) {
            (meta.fileSize() < targetSize ? small : kept).add(meta);
        }
        if (small.size() < minCount) {
            return new ManifestFile.Merged(metas, List.of());
        }
        Map<ManifestEntry.FileId, ManifestEntry> live = new LinkedHashMap<>();
        Map<ManifestEntry.FileId, ManifestEntry> deleted = new LinkedHashMap<>();
        long bytes = 0;
        long entries = 0;
        for (ManifestFileMeta meta : small) {
            LiveFiles.apply(live, deleted, manifests.read(meta.fileName()));
            bytes += meta.fileSize();
            entries += meta.addedFiles() + meta.deletedFiles();
        }
        List<ManifestEntry> merged = new ArrayList<>(live.values());
        // DELETEs of files added in kept manifests must stay.
        merged.addAll(deleted.values());
        long bytesPerEntry = Math.max(1, bytes / Math.max(1, entries));
        int perManifest =
                (int) Math.max(1, Math.min(Integer.MAX_VALUE, targetSize / bytesPerEntry));
        List<ManifestFileMeta> written = new ArrayList<>();
        try {
            for (int i = 0; i < merged.size(); i += perManifest) {
                written.add(
                        manifests.write(
                                merged.subList(i, Math.min(merged.size(), i + perManifest)),
                                schemaId));
            }
        } catch (IOException | RuntimeException e) {
            written.forEach(m -> manifests.delete(m.fileName()));
            throw e;
        }
        List<ManifestFileMeta> result = new ArrayList<>(kept);
        result.addAll(written);
        return new ManifestFile.Merged(result, written);
    }
}
