package dev.tarn.format.maintenance;

import dev.tarn.format.iceberg.IcebergMaintenance;
import dev.tarn.format.ledger.PendingCommit;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.Path;

/**
 * Removes the files under a table's directory that no root (every snapshot and every tag's
 * snapshot) references and that are older than a threshold: data, changelog and index files of
 * failed or abandoned writes, manifests, lists and index manifests of lost commit races, temporary
 * files of atomic writes (SPEC.md, "Orphan files"). A file written for a commit that has not
 * happened yet looks just like an orphan, so only files older than the threshold go (default one
 * day), and a threshold under an hour ago needs {@code force}. A file that a record of the ledger
 * of pending commits lists is never removed while no snapshot of the record's user has reached its
 * checkpoint, whatever its age and even with {@code force}; a record of a published checkpoint
 * protects nothing (its files are a snapshot's, deleted by expiration once compacted away). Files
 * are listed before the ledger and then the roots are read: a snapshot published while the listing
 * runs is read afterwards, so every listed file it references counts as referenced, and a record
 * replaced or deleted after the ledger was read belongs to a commit published before the roots are
 * read.
 */
public final class RemoveOrphanFiles {

    /** The default age: longer than any commit takes, checkpoint intervals and retries included. */
    public static final Duration DEFAULT_AGE = Duration.ofDays(1);

    /** Below this age a prepared file of a running job is likely: refused without force. */
    public static final Duration MIN_AGE = Duration.ofHours(1);

    /** A file removed, or that would be with a dry run. */
    public record Removed(String path, long size) {}

    /**
     * What a cleanup did.
     *
     * @param files the files removed (or to remove, with {@code dryRun}), by path
     * @param olderThan the threshold: only files modified before it were candidates
     * @param warnings one line for each commit user whose pending commits no job has recorded for
     *     longer than {@code pending-commit.retention}: their files are kept
     */
    public record Result(
            String table,
            List<Removed> files,
            boolean dryRun,
            Instant olderThan,
            List<String> warnings) {

        public long bytes() {
            return files.stream().mapToLong(Removed::size).sum();
        }

        /** One line for an operator. */
        public String summary() {
            return String.format(
                    "%s %s (%s) of table %s older than %s%s",
                    dryRun ? "Would remove" : "Removed",
                    Counts.of(files.size(), "orphan file"),
                    Counts.of(bytes(), "byte"),
                    table,
                    olderThan,
                    dryRun ? " (dry run: nothing was deleted)" : "");
        }
    }

    private RemoveOrphanFiles() {}

    /**
     * Removes (or with {@code dryRun} lists) the orphan files of {@code table}.
     *
     * @param olderThan only files modified before it go; null: {@link #DEFAULT_AGE} before now
     * @param force allows a threshold less than {@link #MIN_AGE} before {@code now}
     * @throws IllegalArgumentException naming {@code older_than} and its value if it is too recent
     *     without {@code force}
     * @throws IllegalStateException if a snapshot, manifest list or manifest cannot be read: what
     *     it references is unknown, so nothing is removed
     */
    public static Result run(
            TableContext table,
            @Nullable Instant olderThan,
            boolean dryRun,
            boolean force,
            Instant now) {
        Instant threshold = olderThan == null ? now.minus(DEFAULT_AGE) : olderThan;
        if (!force && threshold.isAfter(now.minus(MIN_AGE))) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot remove orphan files of table %s: older_than %s is less than %d"
                                    + " minutes before now (%s), and files written for a commit"
                                    + " that has not happened yet look orphaned that young; pass"
                                    + " force => true to remove them anyway",
                            table.name(), threshold, MIN_AGE.toMinutes(), now));
        }
        // Order matters: list first, then read the roots (see the class comment).
        List<TableFiles.Listed> listed = TableFiles.candidates(table);
        List<PendingCommit> records = ledger(table);
        Roots roots = Roots.gather(table);
        // Read after the ledger: a commit published in between is in the roots, its files too.
        List<PendingCommit> pending = PendingCheck.unpublished(records, roots.snapshots());
        ReferencedFiles referenced = ReferencedFiles.walk(table, roots.snapshots());
        refuseIfUnknown(table, roots, referenced.unreadable());
        Set<String> keep = new HashSet<>(referenced.named().keySet());
        pending.forEach(record -> keep.addAll(record.files()));
        long earliest = table.snapshotManager().earliestId().orElse(Long.MAX_VALUE);
        for (Path iceberg : IcebergMaintenance.referenced(table, earliest)) {
            keep.add(TableFiles.key(table.location(), iceberg));
        }
        List<TableFiles.Listed> orphans = new ArrayList<>();
        for (TableFiles.Listed file : listed) {
            if (!keep.contains(file.key()) && file.modifiedMillis() < threshold.toEpochMilli()) {
                orphans.add(file);
            }
        }
        orphans.sort(Comparator.comparing(TableFiles.Listed::key));
        List<Removed> removed = new ArrayList<>();
        for (TableFiles.Listed orphan : orphans) {
            if (dryRun || delete(table, orphan.path())) {
                removed.add(new Removed(orphan.path().toString(), orphan.size()));
            }
        }
        Duration retention = table.config().lifecycle().pendingRetention();
        List<String> warnings =
                PendingCheck.untouched(table, pending, now).stream()
                        .map(u -> u.warning(retention))
                        .toList();
        return new Result(table.name(), List.copyOf(removed), dryRun, threshold, warnings);
    }

    /**
     * The ledger's records; a record that cannot be read leaves its files unknown: nothing goes.
     */
    private static List<PendingCommit> ledger(TableContext table) {
        try {
            return PendingCheck.all(table);
        } catch (IllegalArgumentException | UncheckedIOException e) {
            throw new IllegalStateException(
                    String.format(
                            "Cannot remove orphan files of table %s: the ledger of pending commits"
                                    + " cannot be read, so which prepared files it protects is"
                                    + " unknown and nothing was removed (%s)",
                            table.name(), e.getMessage()),
                    e);
        }
    }

    private static void refuseIfUnknown(
            TableContext table, Roots roots, Map<String, String> unreadable) {
        String first =
                !roots.unreadable().isEmpty()
                        ? roots.unreadable().get(0).problem()
                        : unreadable.isEmpty() ? null : unreadable.values().iterator().next();
        if (first != null) {
            throw new IllegalStateException(
                    String.format(
                            "Cannot remove orphan files of table %s: %d metadata files cannot be"
                                    + " read, so which files they reference is unknown and"
                                    + " nothing was removed (first: %s); call check_table",
                            table.name(), roots.unreadable().size() + unreadable.size(), first));
        }
    }

    /** False if the file was gone already (another cleanup removed it). */
    private static boolean delete(TableContext table, Path path) {
        try {
            return table.io().delete(path, false);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot remove orphan file "
                            + path
                            + " of table "
                            + table.name()
                            + ": "
                            + e.getMessage(),
                    e);
        }
    }
}
