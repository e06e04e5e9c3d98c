package dev.tarn.format.commit;

import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.Snapshot.CommitKind;
import dev.tarn.format.write.CommitMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import javax.annotation.Nullable;

/**
 * An OVERWRITE commit: deletes every live file of the partitions its scope selects and adds its
 * writers' files. The files to delete are chosen again from the latest snapshot at every attempt,
 * so a concurrent append into an overwritten partition is replaced too. Always published, even when
 * it changes nothing, so the statement leaves its snapshot.
 */
final class OverwriteStaging implements Staging {

    private final String table;
    private final Predicate<Partition> scope;
    private final List<CommitMessage> messages;
    private final List<ManifestEntry> written;
    private final List<ManifestEntry> changelog;
    private Map<ManifestEntry.FileId, DeletionFile> vectors = Map.of();

    OverwriteStaging(String table, Predicate<Partition> scope, List<CommitMessage> messages) {
        this.table = table;
        this.scope = scope;
        this.messages = messages;
        this.written = CommitEntries.of(messages);
        this.changelog = CommitEntries.changelog(messages);
    }

    @Override
    public CommitKind kind() {
        return CommitKind.OVERWRITE;
    }

    @Override
    public List<ManifestEntry> stage(
            @Nullable Snapshot snapshot,
            Map<ManifestEntry.FileId, ManifestEntry> live,
            Map<ManifestEntry.FileId, DeletionFile> latest) {
        List<ManifestEntry> delta = new ArrayList<>();
        for (ManifestEntry e : live.values()) {
            if (scope.test(e.partition())) {
                delta.add(CommitEntries.deletion(e));
            }
        }
        VectorStaging staged = new VectorStaging(live, latest);
        staged.applyDeletions(delta);
        vectors = staged.applyAll(table, messages);
        delta.addAll(written);
        return delta;
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
        return false;
    }

    @Override
    public boolean publishesWhenEmpty(boolean advancesWatermark) {
        return true;
    }
}
