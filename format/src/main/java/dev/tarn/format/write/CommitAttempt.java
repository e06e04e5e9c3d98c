package dev.tarn.format.write;

import dev.tarn.format.Table;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.ManifestFileMeta;
import dev.tarn.format.manifest.ManifestMerger;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The metadata files one commit attempt writes. If the attempt does not end in a snapshot, {@link
 * #cleanUp} deletes them: nothing else references them. Files handed in from outside (an append's
 * manifest, shared by all attempts) are not tracked.
 */
final class CommitAttempt {

    private final Table table;
    private final List<String> manifestLists = new ArrayList<>();
    private final List<String> manifests = new ArrayList<>();

    CommitAttempt(Table table) {
        this.table = table;
    }

    ManifestFileMeta writeManifest(List<ManifestEntry> entries) throws IOException {
        ManifestFileMeta meta = table.manifestFile().write(entries, table.schema().id());
        manifests.add(meta.fileName());
        return meta;
    }

    String writeList(List<ManifestFileMeta> metas) throws IOException {
        String name = table.manifestList().write(metas);
        manifestLists.add(name);
        return name;
    }

    /** The base manifests, with small ones merged once there are enough of them. */
    List<ManifestFileMeta> mergeBase(List<ManifestFileMeta> base) throws IOException {
        ManifestMerger.Result merged =
                new ManifestMerger(
                                table.manifestFile(),
                                table.config().commit().manifestMergeMinCount(),
                                table.config().commit().manifestTargetSize())
                        .merge(base, table.schema().id());
        merged.written().forEach(m -> manifests.add(m.fileName()));
        return merged.manifests();
    }

    void cleanUp() {
        manifestLists.forEach(table.manifestList()::delete);
        manifests.forEach(table.manifestFile()::delete);
        manifestLists.clear();
        manifests.clear();
    }
}
