package dev.tarn.format.commit;

import dev.tarn.format.deletion.DeletionVector;
import dev.tarn.format.lsm.KeyValueSchema;
import dev.tarn.format.lsm.RowBytes;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.ManifestEntry.FileId;
import dev.tarn.format.manifest.ManifestEntry.FileKind;
import dev.tarn.format.manifest.VectorChange;
import dev.tarn.format.parquet.ParquetDataReader;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.SnapshotReader;
import dev.tarn.format.table.DataFileOpener;
import dev.tarn.format.table.TableContext;
import dev.tarn.format.write.CommitMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;

/**
 * Carries a writer's deletions over to the files that replaced the file it deleted rows of
 * (SPEC.md, "Commits with vectors"): a compaction job compacted the file between the writer's flush
 * and its commit. The rows the writer deleted are found in the compaction's outputs by sequence
 * number and key (a compaction keeps both) and deleted there, so the commit publishes and loses no
 * deletion; the writer then rebuilds its view of the bucket. Reads the replaced file (still on
 * storage until the snapshots that held it expire) and the outputs: a rare, bounded cost.
 */
final class VectorRebase {

    private final TableContext table;
    private final SnapshotReader snapshots;

    VectorRebase(TableContext table) {
        this.table = table;
        this.snapshots = table.snapshotReader();
    }

    /**
     * The changes of {@code message} with those on files no longer in the table ({@code live}, of
     * {@code latest}, whose vectors are {@code vectors}) replaced by changes of the files that
     * replaced them.
     *
     * @throws CommitConflictException naming the file if its rows cannot be carried over: the file
     *     is gone from storage too, or the files that replaced it were replaced again
     */
    CommitMessage rebase(
            CommitMessage message,
            Snapshot latest,
            Map<FileId, ManifestEntry> live,
            Map<FileId, DeletionFile> vectors) {
        if (table.schema().primaryKeys().isEmpty()) {
            return message; // Only a primary-key table's rows are found again by key.
        }
        List<VectorChange> kept = new ArrayList<>();
        Map<String, DeletionVector> carried = new LinkedHashMap<>();
        try {
            for (VectorChange change : message.vectors()) {
                FileId id = new FileId(message.partition(), message.bucket(), change.dataFile());
                boolean added =
                        message.newFiles().stream()
                                .anyMatch(f -> f.fileName().equals(change.dataFile()));
                if (added || live.containsKey(id) || change.after() == null) {
                    kept.add(change);
                    continue;
                }
                carry(message, change, latest, live, vectors, carried);
            }
            if (carried.isEmpty()) {
                return message;
            }
            Map<String, DeletionFile> places = table.indexFiles().write(carried);
            for (Map.Entry<String, DeletionFile> e : places.entrySet()) {
                FileId id = new FileId(message.partition(), message.bucket(), e.getKey());
                kept.add(new VectorChange(e.getKey(), vectors.get(id), e.getValue()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot carry deletions of table " + table.name() + " over: " + e.getMessage(),
                    e);
        }
        return message.withVectors(kept);
    }

    private void carry(
            CommitMessage message,
            VectorChange change,
            Snapshot latest,
            Map<FileId, ManifestEntry> live,
            Map<FileId, DeletionFile> vectors,
            Map<String, DeletionVector> carried)
            throws IOException {
        String file = change.dataFile();
        DeletionVector deleted = table.indexFiles().read(file, change.after());
        DeletionVector before =
                change.before() == null ? null : table.indexFiles().read(file, change.before());
        List<Long> positions = new ArrayList<>();
        deleted.forEach(
                p -> {
                    if (before == null || !before.contains(p)) {
                        positions.add(p);
                    }
                });
        if (positions.isEmpty()) {
            return;
        }
        Replacement replacement = replacementOf(message, file, latest, live);
        KeyValueSchema schema = KeyValueSchema.of(table.schema());
        DataFileOpener opener =
                new DataFileOpener(
                        table,
                        table.bucketPath(message.partition(), message.bucket()),
                        schema.fileType(),
                        null,
                        "carrying deletions over");
        Map<Long, BinaryRowData> rows = new HashMap<>();
        RowBytes copier = new RowBytes(schema.fileType());
        int sequence = schema.tableType().getFieldCount();
        try (ParquetDataReader reader = opener.open(replacement.gone)) {
            int next = 0;
            for (RowData row = reader.next();
                    row != null && next < positions.size();
                    row = reader.next()) {
                if (reader.position() == positions.get(next)) {
                    // A file row: the table's columns (keys at their indexes), then the sequence.
                    rows.put(row.getLong(sequence), copier.encode(row).copy());
                    next++;
                }
            }
        } catch (java.io.FileNotFoundException e) {
            throw conflict(
                    file,
                    "it was compacted by snapshot "
                            + replacement.snapshot
                            + " and is gone from storage too (its snapshots expired)");
        }
        for (DataFile output : replacement.outputs) {
            FileId id = new FileId(message.partition(), message.bucket(), output.fileName());
            try (ParquetDataReader reader = opener.open(output)) {
                for (RowData row = reader.next(); row != null; row = reader.next()) {
                    BinaryRowData wanted = rows.get(row.getLong(sequence));
                    if (wanted != null && schema.compareKeys(wanted, row) == 0) {
                        DeletionVector vector = carried.get(output.fileName());
                        if (vector == null) {
                            DeletionFile place = vectors.get(id);
                            vector =
                                    place == null
                                            ? new DeletionVector()
                                            : table.indexFiles().read(output.fileName(), place);
                            carried.put(output.fileName(), vector);
                        }
                        vector.add(reader.position());
                    }
                }
            }
        }
    }

    /** The file a change named, the compaction that removed it and its outputs in the bucket. */
    private record Replacement(DataFile gone, long snapshot, List<DataFile> outputs) {}

    private Replacement replacementOf(
            CommitMessage message, String file, Snapshot latest, Map<FileId, ManifestEntry> live) {
        long earliest = table.snapshotManager().earliestId().orElse(latest.id());
        for (long id = latest.id(); id >= earliest; id--) {
            SnapshotReader.Delta delta = snapshots.delta(snapshots.snapshot(id));
            DataFile gone = null;
            List<DataFile> outputs = new ArrayList<>();
            for (ManifestEntry e : delta.entries()) {
                if (e.partition().equals(message.partition()) && e.bucket() == message.bucket()) {
                    if (e.kind() == FileKind.DELETE && e.file().fileName().equals(file)) {
                        gone = e.file();
                    } else if (e.kind() == FileKind.ADD) {
                        outputs.add(e.file());
                    }
                }
            }
            if (gone == null) {
                continue;
            }
            if (delta.snapshot().commit().kind() != Snapshot.CommitKind.COMPACT) {
                throw conflict(
                        file,
                        "snapshot "
                                + id
                                + " ("
                                + delta.snapshot().commit().kind()
                                + ") removed it, which only a compaction may under a writer");
            }
            for (DataFile output : outputs) {
                if (!live.containsKey(
                        new FileId(message.partition(), message.bucket(), output.fileName()))) {
                    throw conflict(
                            file,
                            "snapshot "
                                    + id
                                    + " compacted it into "
                                    + output.fileName()
                                    + ", which a later commit replaced too");
                }
            }
            return new Replacement(gone, id, outputs);
        }
        throw conflict(file, "no snapshot since " + earliest + " says which files replaced it");
    }

    private CommitConflictException conflict(String file, String why) {
        return new CommitConflictException(
                String.format(
                        "Cannot commit to table %s: this commit deleted rows of data file %s, and %s;"
                                + " the deletions cannot be recorded",
                        table.name(), file, why));
    }
}
