package org.apache.iceberg;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.OutputFile;

/**
 * Writes an Iceberg snapshot whose id, sequence number and time are given rather than chosen:
 * Tarn's snapshot id and commit time become the Iceberg snapshot's, so that a snapshot means the
 * same table version in both. Iceberg's public snapshot producers pick a random id and the current
 * time, so Tarn writes the manifest list and builds the snapshot with Iceberg's own package-private
 * writer and snapshot class from here; the shaded jar relocates this class together with Iceberg,
 * so the package stays shared.
 */
public final class TarnSnapshots {

    private TarnSnapshots() {}

    /** A snapshot and the manifests its list names, as a reader of the list would find them. */
    public record Written(Snapshot snapshot, List<ManifestFile> manifests) {}

    /**
     * Writes the manifest list of {@code manifests} to {@code out} with {@code lists} (of the
     * table's format version) and returns the snapshot that names it, with the manifests as the
     * list holds them (sequence numbers and first row ids assigned), so that a committer builds the
     * next snapshot without reading the list back.
     *
     * @param nextRowId the table's next row id before this snapshot (format version 3), else null
     */
    public static Written write(
            TarnManifestListWriter lists,
            OutputFile out,
            long snapshotId,
            @Nullable Long parentId,
            long timestampMillis,
            String operation,
            Map<String, String> summary,
            int schemaId,
            List<ManifestFile> manifests,
            @Nullable Long nextRowId)
            throws IOException {
        Long firstRowId = lists.formatVersion() >= 3 ? nextRowId : null;
        Long next = lists.write(out, snapshotId, parentId, firstRowId, manifests);
        Long addedRows = firstRowId == null ? null : next - firstRowId;
        Snapshot snapshot =
                new BaseSnapshot(
                        snapshotId,
                        snapshotId,
                        parentId,
                        timestampMillis,
                        operation,
                        summary,
                        schemaId,
                        out.location(),
                        firstRowId,
                        addedRows,
                        null);
        return new Written(snapshot, asListed(manifests, snapshotId, firstRowId));
    }

    /**
     * {@code manifests} as the list of snapshot {@code snapshotId} (its sequence number too) holds
     * them: what the list writers assign on the way out (V2Metadata and V3Metadata's manifest file
     * wrappers) assigned here alike, in the same order.
     */
    private static List<ManifestFile> asListed(
            List<ManifestFile> manifests, long snapshotId, @Nullable Long firstRowId) {
        List<ManifestFile> listed = new ArrayList<>(manifests.size());
        Long next = firstRowId;
        for (ManifestFile m : manifests) {
            Long rowId = m.firstRowId();
            if (next != null && m.content() == ManifestContent.DATA && rowId == null) {
                rowId = next;
                next += m.existingRowsCount() + m.addedRowsCount();
            }
            boolean own = m.snapshotId() != null && m.snapshotId() == snapshotId;
            long sequence =
                    m.sequenceNumber() == ManifestWriter.UNASSIGNED_SEQ && own
                            ? snapshotId
                            : m.sequenceNumber();
            long minSequence =
                    m.minSequenceNumber() == ManifestWriter.UNASSIGNED_SEQ && own
                            ? snapshotId
                            : m.minSequenceNumber();
            listed.add(
                    new GenericManifestFile(
                            m.path(),
                            m.length(),
                            m.partitionSpecId(),
                            m.content(),
                            sequence,
                            minSequence,
                            m.snapshotId(),
                            m.partitions(),
                            m.keyMetadata(),
                            m.addedFilesCount(),
                            m.addedRowsCount(),
                            m.existingFilesCount(),
                            m.existingRowsCount(),
                            m.deletedFilesCount(),
                            m.deletedRowsCount(),
                            rowId));
        }
        return listed;
    }

    /**
     * The manifests {@code snapshot}'s list names, read without caching them in the snapshot: a
     * committer keeps its last metadata, whose snapshots would otherwise each hold their lists for
     * as long as the table retains them.
     */
    public static List<ManifestFile> manifests(Snapshot snapshot, FileIO io) {
        return ManifestLists.read(io.newInputFile(snapshot.manifestListLocation()));
    }

    /** The entries one partition spec's rewritten manifest keeps and deletes. */
    private record Rewrite(
            List<TarnManifestEntries.Live> existing, List<TarnManifestEntries.Live> deleted) {}

    /**
     * {@code manifests} without the live files whose locations {@code deleted} holds: each manifest
     * that holds none stays as it is; the live files of those that hold some are written, for each
     * partition spec, to one new manifest of snapshot {@code snapshotId} (from {@code out}, with
     * the spec's writer from {@code writers}), the deleted ones as deleted and the others as
     * existing with their sequence numbers. Each manifest is looked at once ({@link
     * TarnManifestEntries}: in memory, or read), and one manifest is written however many held
     * deleted files (a full compaction deletes the files of every manifest).
     */
    public static List<ManifestFile> rewriteWithout(
            List<ManifestFile> manifests,
            FileIO io,
            Map<Integer, PartitionSpec> specs,
            Set<String> deleted,
            Function<PartitionSpec, TarnManifestWriter> writers,
            Supplier<OutputFile> out,
            long snapshotId) {
        List<ManifestFile> kept = new ArrayList<>();
        Map<Integer, Rewrite> bySpec = new LinkedHashMap<>();
        try {
            for (ManifestFile manifest : manifests) {
                List<TarnManifestEntries.Live> live = TarnManifestEntries.live(manifest, io, specs);
                boolean holds = false;
                for (TarnManifestEntries.Live entry : live) {
                    if (deleted.contains(entry.file().location())) {
                        holds = true;
                        break;
                    }
                }
                if (!holds) {
                    kept.add(manifest);
                    continue;
                }
                Rewrite rewrite =
                        bySpec.computeIfAbsent(
                                manifest.partitionSpecId(),
                                k -> new Rewrite(new ArrayList<>(), new ArrayList<>()));
                for (TarnManifestEntries.Live entry : live) {
                    (deleted.contains(entry.file().location())
                                    ? rewrite.deleted()
                                    : rewrite.existing())
                            .add(entry);
                }
            }
            for (Map.Entry<Integer, Rewrite> r : bySpec.entrySet()) {
                kept.add(
                        writers.apply(specs.get(r.getKey()))
                                .rewrite(
                                        out.get(),
                                        snapshotId,
                                        r.getValue().existing(),
                                        r.getValue().deleted()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot rewrite Iceberg manifests without deleted files: " + e.getMessage(), e);
        }
        return kept;
    }

    /**
     * Writes the live files of {@code manifests} (all of one partition spec, whose writer {@code
     * writer} is) to {@code out} as one manifest of snapshot {@code snapshotId}: each file
     * existing, with the snapshot and sequence numbers it was added with.
     */
    public static ManifestFile merge(
            List<ManifestFile> manifests,
            FileIO io,
            Map<Integer, PartitionSpec> specs,
            TarnManifestWriter writer,
            OutputFile out,
            long snapshotId) {
        List<TarnManifestEntries.Live> all = new ArrayList<>();
        try {
            for (ManifestFile manifest : manifests) {
                all.addAll(TarnManifestEntries.live(manifest, io, specs));
            }
            return writer.rewrite(out, snapshotId, all, List.of());
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot merge Iceberg manifests into " + out.location() + ": " + e.getMessage(),
                    e);
        }
    }
}
