package dev.tarn.catalog;

import dev.tarn.format.Table;
import dev.tarn.format.manifest.LiveFiles;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.write.CommitMessage;
import dev.tarn.format.write.TableCommit;
import dev.tarn.format.write.TableWrite;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;

/**
 * {@code CALL <catalog>.sys.compact('db.table')}: compacts every bucket of a primary-key table into
 * one sorted run at the last level, dropping tombstones, and publishes the result as one COMPACT
 * snapshot that changes no row. Runs in the calling process, bucket by bucket; a bucket that a
 * writer of the table compacts (or overwrites) meanwhile is left as that writer made it, and the
 * result says how many were. Public because Flink calls {@code call} reflectively.
 */
public final class CompactProcedure implements Procedure {

    static final String NAME = "compact";

    private final Function<ObjectPath, Table> tables;

    CompactProcedure(Function<ObjectPath, Table> tables) {
        this.tables = tables;
    }

    public String[] call(ProcedureContext context, String table) {
        ObjectPath path;
        try {
            path = ObjectPath.fromString(table);
        } catch (IllegalArgumentException e) {
            throw new ValidationException(
                    "Cannot compact '" + table + "': name a table as 'database.table'", e);
        }
        Table target = tables.apply(path);
        if (target.schema().primaryKeys().isEmpty()) {
            throw new ValidationException(
                    "Cannot compact table "
                            + target.name()
                            + ": it has no primary key; only primary-key tables compact");
        }
        OptionalLong latest = target.snapshotManager().latestId();
        if (latest.isEmpty()) {
            return new String[] {"Table " + target.name() + " has no snapshot: nothing to compact"};
        }
        Snapshot snapshot = target.snapshotManager().snapshot(latest.getAsLong());
        Set<ManifestEntry.FileId> seen = new LinkedHashSet<>();
        Set<List<Object>> buckets = new LinkedHashSet<>();
        for (ManifestEntry e :
                LiveFiles.of(target.manifestList(), target.manifestFile(), snapshot).values()) {
            if (seen.add(e.fileId())) {
                buckets.add(List.of(e.partition(), e.bucket()));
            }
        }
        List<CommitMessage> messages;
        try (TableWrite write = target.newWrite()) {
            for (List<Object> bucket : buckets) {
                write.compactFully((Partition) bucket.get(0), (Integer) bucket.get(1));
            }
            messages = write.prepareCommit(true);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot compact table " + target.name() + ": " + e.getMessage(), e);
        }
        TableCommit.Result result =
                target.newCommit("compact-" + UUID.randomUUID()).publish(1, messages);
        int dropped = result.droppedCompactions().size();
        if (result.snapshotId().isEmpty()) {
            return new String[] {
                dropped == 0
                        ? "Table "
                                + target.name()
                                + " is compacted already: "
                                + buckets.size()
                                + " buckets"
                        : String.format(
                                "Compacted no bucket of table %s: writers rewrote all %d buckets"
                                        + " it compacted while it ran; the table is unchanged, call"
                                        + " compact again",
                                target.name(), dropped)
            };
        }
        String compacted =
                String.format(
                        "Compacted %d buckets of table %s into snapshot %d",
                        messages.size() - dropped, target.name(), result.snapshotId().getAsLong());
        return new String[] {
            dropped == 0
                    ? compacted
                    : compacted
                            + String.format(
                                    "; %d buckets were rewritten by writers while it ran and are"
                                            + " left as they are",
                                    dropped)
        };
    }
}
