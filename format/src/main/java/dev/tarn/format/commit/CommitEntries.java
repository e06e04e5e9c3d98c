package dev.tarn.format.commit;

import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.ManifestEntry.FileKind;
import dev.tarn.format.write.CommitMessage;
import java.util.ArrayList;
import java.util.List;

/**
 * The manifest entries a commit writes for its messages: a DELETE per file a message replaces
 * before an ADD per file it adds (so a message that rewrites files reads as one change), and the
 * ADD entries of the changelog files, which go to a manifest of their own.
 */
final class CommitEntries {

    /** The DELETE and ADD entries of {@code messages}' data files. */
    static List<ManifestEntry> of(List<CommitMessage> messages) {
        List<ManifestEntry> entries = new ArrayList<>();
        for (CommitMessage m : messages) {
            for (DataFile f : m.deletedFiles()) {
                entries.add(
                        new ManifestEntry(
                                FileKind.DELETE, m.partition(), m.bucket(), m.totalBuckets(), f));
            }
            for (DataFile f : m.newFiles()) {
                entries.add(
                        new ManifestEntry(
                                FileKind.ADD, m.partition(), m.bucket(), m.totalBuckets(), f));
            }
        }
        return entries;
    }

    /** The changelog files of {@code messages}, as the entries of a changelog manifest. */
    static List<ManifestEntry> changelog(List<CommitMessage> messages) {
        List<ManifestEntry> entries = new ArrayList<>();
        for (CommitMessage m : messages) {
            for (DataFile f : m.changelogFiles()) {
                entries.add(
                        new ManifestEntry(
                                FileKind.ADD, m.partition(), m.bucket(), m.totalBuckets(), f));
            }
        }
        return entries;
    }

    /** The entry that deletes the live file {@code live}. */
    static ManifestEntry deletion(ManifestEntry live) {
        return new ManifestEntry(
                FileKind.DELETE, live.partition(), live.bucket(), live.totalBuckets(), live.file());
    }

    private CommitEntries() {}
}
