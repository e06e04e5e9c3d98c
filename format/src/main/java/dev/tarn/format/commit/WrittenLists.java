package dev.tarn.format.commit;

import dev.tarn.format.manifest.ManifestList.ManifestFileMeta;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.table.TableContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The manifest lists one committer wrote last, by name. A list never changes once written (its name
 * is unique), so the next commit, which builds on the snapshot this committer published, takes that
 * snapshot's lists from here instead of reading them back: two fewer reads per commit on an object
 * store. Lists of other committers' snapshots are read as usual. Thread-safe.
 */
final class WrittenLists {

    /** A commit writes two or three lists, and builds on the last commit's; a few more spare. */
    private static final int KEPT = 8;

    private final Map<String, List<ManifestFileMeta>> lists =
            new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, List<ManifestFileMeta>> e) {
                    return size() > KEPT;
                }
            };

    synchronized void put(String name, List<ManifestFileMeta> metas) {
        lists.put(name, List.copyOf(metas));
    }

    synchronized void remove(String name) {
        lists.remove(name);
    }

    /** The manifests of {@code snapshot}'s base and delta lists, as the snapshot reader gives. */
    List<ManifestFileMeta> manifests(TableContext table, Snapshot snapshot) {
        List<ManifestFileMeta> base = get(snapshot.baseManifestList());
        List<ManifestFileMeta> delta = get(snapshot.deltaManifestList());
        if (base == null || delta == null) {
            return table.snapshotReader().manifests(snapshot);
        }
        List<ManifestFileMeta> all = new ArrayList<>(base);
        all.addAll(delta);
        return all;
    }

    private synchronized List<ManifestFileMeta> get(String name) {
        return lists.get(name);
    }
}
