package dev.tarn.format.commit;

import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.snapshot.Snapshot.CommitKind;
import dev.tarn.format.write.CommitMessage;
import java.util.List;
import java.util.Map;

/**
 * An APPEND commit: its writers' new files and their changelog, the same whatever the table holds,
 * so it conflicts only where its writers deleted rows of a file whose deletion vector another
 * commit changed first (or which another commit removed). Published without files when it only
 * advances the table's watermark, so readers learn that event time moved while no rows came.
 */
final class AppendStaging implements Staging {

    private final String table;
    private final List<CommitMessage> appends;
    private final List<ManifestEntry> entries;
    private final List<ManifestEntry> changelog;
    private Map<ManifestEntry.FileId, DeletionFile> vectors = Map.of();

    AppendStaging(String table, List<CommitMessage> appends) {
        this.table = table;
        this.appends = appends;
        this.entries = CommitEntries.of(appends);
        this.changelog = CommitEntries.changelog(appends);
    }

    boolean isEmpty() {
        return entries.isEmpty()
                && changelog.isEmpty()
                && appends.stream().allMatch(m -> m.vectors().isEmpty());
    }

    @Override
    public CommitKind kind() {
        return CommitKind.APPEND;
    }

    @Override
    public List<ManifestEntry> stage(
            Map<ManifestEntry.FileId, ManifestEntry> live,
            Map<ManifestEntry.FileId, DeletionFile> latest) {
        vectors = VectorStaging.applyAll(table, live, latest, appends);
        return entries;
    }

    @Override
    public Map<ManifestEntry.FileId, DeletionFile> vectors() {
        return vectors;
    }

    @Override
    public List<ManifestEntry> changelog() {
        return changelog;
    }

    @Override
    public boolean sameEveryAttempt() {
        return true;
    }

    @Override
    public boolean publishesWhenEmpty(boolean advancesWatermark) {
        return advancesWatermark;
    }
}
