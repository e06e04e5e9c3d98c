package dev.tarn.format.commit;

import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.Snapshot.CommitKind;
import dev.tarn.format.write.CommitMessage;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * An APPEND commit: its writers' new files and their changelog, the same whatever the table holds,
 * so it conflicts only where its writers deleted rows of a file whose deletion vector another
 * commit changed first (or which another commit removed). Published without files when it only
 * advances the table's watermark, so readers learn that event time moved while no rows came.
 */
final class AppendStaging implements Staging {

    private final String table;
    @Nullable private final VectorRebase rebase;
    private final List<CommitMessage> appends;
    private final List<ManifestEntry> entries;
    private final List<ManifestEntry> changelog;
    private Map<ManifestEntry.FileId, DeletionFile> vectors = Map.of();

    AppendStaging(String table, List<CommitMessage> appends) {
        this(table, null, appends);
    }

    /**
     * @param rebase carries the deletions of files a compaction replaced since the writers made
     *     them over to its outputs; null to refuse such a commit
     */
    AppendStaging(String table, @Nullable VectorRebase rebase, List<CommitMessage> appends) {
        this.rebase = rebase;
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
            @Nullable Snapshot snapshot,
            Map<ManifestEntry.FileId, ManifestEntry> live,
            Map<ManifestEntry.FileId, DeletionFile> latest) {
        List<CommitMessage> messages = appends;
        if (rebase != null && snapshot != null) {
            messages = new java.util.ArrayList<>(appends.size());
            for (CommitMessage m : appends) {
                messages.add(m.vectors().isEmpty() ? m : rebase.rebase(m, snapshot, live, latest));
            }
        }
        vectors = VectorStaging.applyAll(table, live, latest, messages);
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
