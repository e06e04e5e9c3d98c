package dev.tarn.format.commit;

import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.ManifestEntry.FileId;
import dev.tarn.format.manifest.ManifestEntry.FileKind;
import dev.tarn.format.manifest.VectorChange;
import dev.tarn.format.write.CommitMessage;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * The deletion vectors of the table after a commit (SPEC.md, "Deletion vectors"), staged beside its
 * data-file entries: the latest snapshot's vectors with each message's {@link VectorChange}s
 * applied, and without the vectors of the files the commit deletes. A change applies only if the
 * file's vector is still the one it was made on and the file is still in the table (or added by the
 * commit): otherwise another commit changed the file first, and applying the change would lose its
 * deletions or name a file that is gone.
 */
final class VectorStaging {

    private final Map<FileId, DeletionFile> vectors;
    private final Set<FileId> available;

    /**
     * @param live the latest snapshot's live files
     * @param vectors the latest snapshot's vectors
     */
    VectorStaging(Map<FileId, ManifestEntry> live, Map<FileId, DeletionFile> vectors) {
        this.vectors = new LinkedHashMap<>(vectors);
        this.available = new HashSet<>(live.keySet());
    }

    /**
     * Why {@code message}'s vector changes cannot apply now, or null if they can. A message's new
     * files count as in the table.
     */
    @Nullable
    String conflict(CommitMessage message) {
        for (VectorChange change : message.vectors()) {
            FileId id = id(message, change);
            DeletionFile current = vectors.get(id);
            boolean added =
                    message.newFiles().stream().anyMatch(f -> f.fileName().equals(id.fileName()));
            if (!added && !available.contains(id)) {
                return String.format(
                        "data file %s of bucket %d of partition %s is no longer in the table"
                                + " (another commit compacted or overwrote it), so the %s deleted"
                                + " rows of its vector %s cannot be recorded",
                        id.fileName(),
                        id.bucket(),
                        id.partition(),
                        change.after() == null ? "?" : change.after().cardinality(),
                        change.after());
            }
            if (!Objects.equals(current, change.before())) {
                return changed(id, change.before(), current);
            }
        }
        for (var f : message.deletedFiles()) {
            FileId id = new FileId(message.partition(), message.bucket(), f.fileName());
            DeletionFile current = vectors.get(id);
            if (current != null
                    && message.vectors().stream()
                            .noneMatch(c -> c.dataFile().equals(f.fileName()))) {
                return changed(id, null, current);
            }
        }
        return null;
    }

    private static String changed(
            FileId id, @Nullable DeletionFile before, @Nullable DeletionFile now) {
        return String.format(
                "the deletion vector of data file %s of bucket %d of partition %s changed"
                        + " since this commit's writer read it: it was %s, it is %s"
                        + " (another commit deleted rows of the file first)",
                id.fileName(),
                id.bucket(),
                id.partition(),
                before == null ? "none" : before,
                now == null ? "none" : now);
    }

    /**
     * Applies {@code message}: its data files (deleted ones leave the table, new ones join it) and
     * its vector changes. REQUIRES: {@link #conflict} returned null.
     */
    void apply(CommitMessage message) {
        message.deletedFiles()
                .forEach(
                        f -> {
                            FileId id =
                                    new FileId(message.partition(), message.bucket(), f.fileName());
                            available.remove(id);
                            vectors.remove(id);
                        });
        message.newFiles()
                .forEach(
                        f ->
                                available.add(
                                        new FileId(
                                                message.partition(),
                                                message.bucket(),
                                                f.fileName())));
        for (VectorChange change : message.vectors()) {
            FileId id = id(message, change);
            if (change.after() == null) {
                vectors.remove(id);
            } else {
                vectors.put(id, change.after());
            }
        }
    }

    /**
     * Drops the vectors of files that {@code delta} deletes beyond its messages' (an overwrite's).
     */
    void applyDeletions(List<ManifestEntry> delta) {
        for (ManifestEntry e : delta) {
            if (e.kind() == FileKind.DELETE) {
                available.remove(e.fileId());
                vectors.remove(e.fileId());
            }
        }
    }

    /**
     * The vectors after {@code messages} (of a commit to {@code table} whose latest snapshot holds
     * {@code live} with {@code vectors}).
     *
     * @throws CommitConflictException naming the table, the file and both vectors if a message
     *     cannot apply
     */
    static Map<FileId, DeletionFile> applyAll(
            String table,
            Map<FileId, ManifestEntry> live,
            Map<FileId, DeletionFile> vectors,
            List<CommitMessage> messages) {
        return new VectorStaging(live, vectors).applyAll(table, messages);
    }

    /** Applies {@code messages}, throwing on the first that conflicts; the vectors after them. */
    Map<FileId, DeletionFile> applyAll(String table, List<CommitMessage> messages) {
        for (CommitMessage m : messages) {
            String conflict = conflict(m);
            if (conflict != null) {
                throw new CommitConflictException(
                        "Cannot commit to table " + table + ": " + conflict);
            }
            apply(m);
        }
        return vectors;
    }

    /** The vectors after the messages applied so far. */
    Map<FileId, DeletionFile> vectors() {
        return vectors;
    }

    private static FileId id(CommitMessage message, VectorChange change) {
        return new FileId(message.partition(), message.bucket(), change.dataFile());
    }
}
