package dev.tarn.format.commit;

import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.snapshot.Snapshot;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * Work that follows a commit inside the format (expiration, Iceberg metadata), run by {@link
 * TableCommit} on the committing thread. {@link #afterCommit} runs after every {@link
 * TableCommit#commit} call that did not fail, whether or not it published a snapshot (a retried
 * commit found published still lets the hook catch up); a hook that needs time does it off that
 * thread; its failure there is its own to report and never fails the commit, which is already
 * published. A hook that must write something before a snapshot is published ({@link
 * #beforePublish}) fails the attempt if it cannot.
 */
public interface CommitHook extends AutoCloseable {

    /**
     * A snapshot an attempt is about to publish, with what it was staged from.
     *
     * @param base the latest snapshot the attempt staged against, or null for the first commit
     * @param baseFiles the live files of {@code base}
     * @param delta the files {@code snapshot} adds and deletes
     * @param vectors the deletion vectors of {@code snapshot}'s live files
     * @param vectorsChanged whether {@code vectors} differ from those of {@code base}
     */
    record Staged(
            Snapshot snapshot,
            @Nullable Snapshot base,
            Map<ManifestEntry.FileId, ManifestEntry> baseFiles,
            List<ManifestEntry> delta,
            Map<ManifestEntry.FileId, DeletionFile> vectors,
            boolean vectorsChanged) {}

    /**
     * Called with every staged snapshot before the attempt publishes it; an exception fails the
     * attempt, which then publishes nothing.
     */
    default void beforePublish(Staged staged) throws IOException {}

    /**
     * Called once an attempt published {@code snapshot}; a failure is logged, never thrown, as the
     * snapshot is published.
     */
    default void afterPublish(Snapshot snapshot) {}

    /** Called after a commit call; {@code result} says what it published. */
    default void afterCommit(TableCommit.Result result) {}

    /** Releases what the hook holds (a thread); called once, when the committer closes. */
    @Override
    default void close() {}
}
