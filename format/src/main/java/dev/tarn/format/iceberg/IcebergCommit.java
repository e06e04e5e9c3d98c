package dev.tarn.format.iceberg;

import dev.tarn.format.commit.CommitHook;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.ManifestEntry.FileId;
import dev.tarn.format.schema.IcebergOptions;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.iceberg.TableMetadata;

/**
 * The commit step of a table with {@code metadata.iceberg.storage} = {@code table-location}
 * (SPEC.md, "Iceberg metadata"): before Tarn snapshot {@code N} is published it writes {@code
 * metadata/v<N>.metadata.json} (and the manifests and manifest list it names); once the snapshot is
 * published it points {@code version-hint.text} at it. A crash or a lost race between the two
 * leaves a {@code v<N>} that no hint names, which the next commit of snapshot {@code N} replaces; a
 * commit whose parent has no valid Iceberg metadata (the option was just turned on, or a crash
 * struck) writes the metadata of its snapshot whole.
 */
public final class IcebergCommit implements CommitHook {

    private final IcebergTable iceberg;
    private final IcebergSnapshots snapshots;

    /** The metadata this committer wrote last, published or not, and its snapshot. */
    @Nullable private TableMetadata written;

    @Nullable private Snapshot writtenFor;

    private IcebergCommit(TableContext table) {
        this.iceberg = new IcebergTable(table);
        this.snapshots = new IcebergSnapshots(iceberg);
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
        TableMetadata base = staged.base() == null ? null : baseOf(staged.base());
        Map<FileId, ManifestEntry> live = staged.baseFiles();
        TableMetadata next =
                snapshots.build(
                        base,
                        staged.snapshot(),
                        live,
                        staged.delta(),
                        staged.vectors(),
                        staged.vectorsChanged());
        written = iceberg.write(staged.snapshot().id(), next);
        writtenFor = staged.snapshot();
    }

    @Override
    public void afterPublish(Snapshot snapshot) {
        if (writtenFor == null || writtenFor.id() != snapshot.id()) {
            return;
        }
        try {
            iceberg.writeHint(snapshot.id());
        } catch (IOException e) {
            throw iceberg.failure("write", iceberg.hintPath(), e);
        }
    }

    /** The valid Iceberg metadata of {@code base}, from memory if this committer wrote it. */
    @Nullable
    private TableMetadata baseOf(Snapshot base) {
        if (written != null && writtenFor != null && writtenFor.equals(base)) {
            return written;
        }
        try {
            return iceberg.readFor(base);
        } catch (UncheckedIOException e) {
            return null; // Unreadable: written again whole.
        }
    }
}
