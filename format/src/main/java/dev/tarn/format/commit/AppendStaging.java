package dev.tarn.format.commit;

import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.snapshot.Snapshot.CommitKind;
import dev.tarn.format.write.CommitMessage;
import java.util.List;
import java.util.Map;

/**
 * An APPEND commit: its writers' new files and their changelog, the same whatever the table holds,
 * so it never conflicts. Published without files when it only advances the table's watermark, so
 * readers learn that event time moved while no rows came.
 */
final class AppendStaging implements Staging {

    private final List<ManifestEntry> entries;
    private final List<ManifestEntry> changelog;

    AppendStaging(List<CommitMessage> appends) {
        this.entries = CommitEntries.of(appends);
        this.changelog = CommitEntries.changelog(appends);
    }

    boolean isEmpty() {
        return entries.isEmpty() && changelog.isEmpty();
    }

    @Override
    public CommitKind kind() {
        return CommitKind.APPEND;
    }

    @Override
    public List<ManifestEntry> stage(Map<ManifestEntry.FileId, ManifestEntry> live) {
        return entries;
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
