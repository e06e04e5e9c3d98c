package dev.tarn.format.commit;

import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.Snapshot.CommitKind;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * How one kind of commit turns its messages into manifest entries on top of the table as it is at
 * an attempt: staged again after every lost race, so the retry loop in {@link TableCommit} knows
 * nothing of kinds. One implementation per {@link CommitKind}.
 */
interface Staging {

    CommitKind kind();

    /**
     * The data-file entries to publish on top of {@code live}, the live files of the latest
     * snapshot {@code latest} (null and empty for the first commit), whose deletion vectors are
     * {@code vectors}.
     *
     * @throws CommitConflictException if the commit cannot apply to the table as it now is
     */
    List<ManifestEntry> stage(
            @Nullable Snapshot latest,
            Map<ManifestEntry.FileId, ManifestEntry> live,
            Map<ManifestEntry.FileId, DeletionFile> vectors);

    /** The deletion vectors of the table after what the last {@link #stage} staged. */
    Map<ManifestEntry.FileId, DeletionFile> vectors();

    /** The changelog entries of what the last {@link #stage} kept. */
    List<ManifestEntry> changelog();

    /**
     * Whether {@link #stage} and {@link #changelog} return the same entries at every attempt, so
     * one manifest of each, written at the first attempt, serves them all.
     */
    boolean sameEveryAttempt();

    /**
     * Whether an attempt that staged {@code delta} and {@code changelog} publishes a snapshot even
     * if both are empty ({@code advancesWatermark}: the commit's watermark is above the table's).
     */
    boolean publishesWhenEmpty(boolean advancesWatermark);
}
