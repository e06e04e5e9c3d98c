package dev.tarn.format.iceberg;

import dev.tarn.format.commit.CommitHook;
import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.ManifestEntry.FileId;
import dev.tarn.format.schema.IcebergOptions;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import javax.annotation.Nullable;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.exceptions.NotFoundException;

/**
 * The commit step of a table with {@code metadata.iceberg.storage} = {@code table-location}
 * (SPEC.md, "Iceberg metadata"): before Tarn snapshot {@code N} is published it writes the Iceberg
 * manifests and manifest list of its Iceberg snapshot; once the snapshot is published it writes
 * {@code metadata/v<N>.metadata.json}, then points {@code version-hint.text} at it. The version
 * file must not exist before its snapshot does: Iceberg's path tables read every {@code v<N>} after
 * the hinted one, so a commit that then failed or lost the race would show its files (or, by
 * replacing the winner's {@code v<N>}, hide the winner's). A crash before the version file is
 * written leaves Iceberg readers on the version before, and the next commit, whose parent then has
 * no valid Iceberg metadata, writes the metadata of its own snapshot whole.
 */
public final class IcebergCommit implements CommitHook {

    private final IcebergTable iceberg;
    private final IcebergSnapshots snapshots;

    /** The metadata of the snapshot this committer's attempt is about to publish, unwritten. */
    @Nullable private IcebergVersion pending;

    @Nullable private Snapshot pendingFor;

    /** The metadata a committer of this table instance wrote last, shared by its committers. */
    private final LastWritten last;

    private IcebergCommit(TableContext table) {
        this.iceberg = new IcebergTable(table);
        this.snapshots = new IcebergSnapshots(iceberg);
        this.last = table.shared(LastWritten.class, LastWritten::new);
    }

    /**
     * The Iceberg version a committer of one table instance wrote last (of a published snapshot)
     * with its snapshot: every committer of the instance (a stream's, a compaction's) builds the
     * next version on it without reading it back, as long as the snapshot it builds on is that one.
     */
    static final class LastWritten {

        /** An Iceberg version and the Tarn snapshot it is the metadata of. */
        private record Written(IcebergVersion version, Snapshot snapshot) {}

        private final AtomicReference<Written> last = new AtomicReference<>();

        @Nullable
        IcebergVersion of(Snapshot snapshot) {
            Written w = last.get();
            return w != null && same(w.snapshot(), snapshot) ? w.version() : null;
        }

        void set(IcebergVersion version, Snapshot snapshot) {
            last.set(new Written(version, snapshot));
        }

        /**
         * Whether {@code a} and {@code b} are one published snapshot: of one id, with one delta
         * manifest list (a new, unique name per attempt), as {@link IcebergTable#isFor} tells a
         * version's snapshot, without comparing every field of both at every commit.
         */
        private static boolean same(Snapshot a, Snapshot b) {
            return a == b
                    || (a.id() == b.id() && a.deltaManifestList().equals(b.deltaManifestList()));
        }
    }

    /**
     * The hooks a committer of {@code table} runs for its Iceberg metadata: none if it has none.
     */
    public static List<CommitHook> hooks(TableContext table) {
        return table.config().iceberg() == IcebergOptions.Storage.TABLE_LOCATION
                ? List.of(new IcebergCommit(table))
                : List.of();
    }

    @Override
    public void beforePublish(Staged staged) throws IOException {
        IcebergVersion base = staged.base() == null ? null : baseOf(staged.base());
        Map<FileId, ManifestEntry> live = staged.baseFiles();
        IcebergVersion next =
                snapshots.build(
                        base,
                        staged.snapshot(),
                        live,
                        staged.delta(),
                        staged.vectors(),
                        staged.vectorsChanged());
        pending = next;
        pendingFor = staged.snapshot();
    }

    @Override
    public void afterPublish(Snapshot snapshot) {
        if (pendingFor == null || !pendingFor.equals(snapshot)) {
            return;
        }
        IcebergVersion next = pending;
        pending = null;
        pendingFor = null;
        try {
            last.set(iceberg.write(snapshot.id(), next), snapshot);
        } catch (IOException e) {
            throw iceberg.failure("write", iceberg.versionPath(snapshot.id()), e);
        }
        try {
            iceberg.writeHint(snapshot.id());
        } catch (IOException e) {
            throw iceberg.failure("write", iceberg.hintPath(), e);
        }
    }

    /**
     * After a call that found its commit published already (its earlier publish failed with an
     * unknown outcome that was a success, so {@link #afterPublish} never ran): writes the Iceberg
     * version of that snapshot if it is still the latest and has none, from memory if this
     * committer staged it, else whole.
     */
    @Override
    public void afterCommit(TableCommit.Result result) {
        if (!result.alreadyCommitted() || result.snapshotId().isEmpty()) {
            return;
        }
        long id = result.snapshotId().getAsLong();
        TableContext table = iceberg.context();
        if (table.snapshotManager().latestId().orElse(-1) != id) {
            return; // A later commit wrote its own version (whole, as this one's is missing).
        }
        Snapshot snapshot = table.snapshotManager().snapshot(id);
        if (iceberg.readFor(snapshot) != null) {
            return;
        }
        if (pendingFor == null || !pendingFor.equals(snapshot)) {
            try {
                pending = snapshots.whole(snapshot);
            } catch (IOException e) {
                throw iceberg.failure("write", iceberg.versionPath(id), e);
            }
            pendingFor = snapshot;
        }
        afterPublish(snapshot);
    }

    /**
     * The valid Iceberg metadata of {@code base}, from memory if a committer of this table instance
     * wrote it.
     */
    @Nullable
    private IcebergVersion baseOf(Snapshot base) {
        IcebergVersion remembered = last.of(base);
        if (remembered != null) {
            return remembered;
        }
        try {
            TableMetadata read = iceberg.readFor(base);
            return read == null ? null : IcebergVersion.of(read, iceberg.io());
        } catch (UncheckedIOException | NotFoundException e) {
            return null; // Unreadable: written again whole.
        }
    }
}
