package dev.tarn.format.lsm.lookup;

import dev.tarn.format.lsm.KeyValue;
import dev.tarn.format.lsm.KeyValueSchema;
import dev.tarn.format.lsm.RowBytes;
import dev.tarn.format.lsm.merge.MergeFunction;
import dev.tarn.format.lsm.run.BucketTreeReader;
import dev.tarn.format.lsm.run.KeyValueFileWriter;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.parquet.ParquetDataReader;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.types.RowKind;

/**
 * With deletion vectors (SPEC.md, "Deletion vectors"): the current row of each key of one bucket
 * and where it lies, a {@linkplain BucketVectors#location location} kept beside the key in the
 * bucket's {@link LookupIndex}. Always: each key has exactly one row that no vector deletes, and
 * the index holds that row's location. A flush's change marks the key's row deleted at its location
 * and {@linkplain #placed places} the new one; a compaction {@linkplain #relocate relocates} the
 * rows it rewrote. Its {@link LookupChangelog} builds, pins and drops the index; this class only
 * reads and writes the locations in it. Not thread-safe: as its changelog.
 */
public final class LocatedRows {

    private final KeyValueSchema schema;
    private final MergeFunction merge;
    private final BucketTreeReader.ColumnOpener opener;
    @Nullable private final KeyValueFileWriter out;
    private final LookupIndex index;
    private final BucketVectors vectors;
    private final RowBytes bytes;

    /**
     * @param opener opens a file with its vector applied
     * @param out where changelog rows go; null for none (the changelog producer is not {@code
     *     lookup})
     */
    LocatedRows(
            KeyValueSchema schema,
            MergeFunction merge,
            BucketTreeReader.ColumnOpener opener,
            @Nullable KeyValueFileWriter out,
            LookupIndex index,
            BucketVectors vectors) {
        this.schema = schema;
        this.merge = merge;
        this.opener = opener;
        this.out = out;
        this.index = index;
        this.vectors = vectors;
        this.bytes = new RowBytes(schema.tableType());
    }

    /**
     * Reads every row no vector deletes into the reset index, file by file (each key has one), with
     * its location. A file's keys ascend, so each file is one pass of the index.
     *
     * @throws IllegalStateException if the rows do not fit in the lookup memory
     */
    void build(List<DataFile> files) throws IOException {
        for (DataFile file : files) {
            try (ParquetDataReader reader =
                    opener.open(file, schema.fileType())
                            .withDeletions(vectors.vector(file.fileName()))) {
                for (RowData row = reader.next(); row != null; row = reader.next()) {
                    BinaryRowData copy = bytes.encode(schema.fromFileRow(row).row());
                    index.find(copy);
                    if (!index.put(copy)) {
                        throw tooLarge();
                    }
                    index.setLocation(vectors.location(file.fileName(), reader.position()));
                }
            }
        }
    }

    /**
     * Applies one merged change of a flush to its key's current row and marks that row's location
     * deleted; writes the changelog rows, if any. Returns what the flush's file holds for the key:
     * the new row, whole (to be {@linkplain #placed placed}), a tombstone (which the caller deletes
     * in its own file, for streaming reads of the flush's changes only), or null when the key's row
     * stays as it is (first-row, an unchanged row, a delete of a missing key). The result is valid
     * until the next call. REQUIRES: the changelog's {@link LookupChangelog#begin} returned true;
     * keys ascending.
     *
     * @throws IllegalStateException if the bucket's rows do not fit in the lookup memory
     */
    @Nullable
    public KeyValue apply(KeyValue change) throws IOException {
        if (index.isDropped()) {
            throw tooLarge();
        }
        RowData old = index.find(change.row());
        long oldLocation = old == null ? -1 : index.location();
        merge.reset();
        if (old != null) {
            merge.add(new KeyValue(change.sequence() - 1, RowKind.INSERT, old));
        }
        merge.add(change);
        KeyValue result = merge.result();
        long sequence = change.sequence();
        if (result == null || result.isRetraction()) {
            if (old == null) {
                return null;
            }
            if (out != null) {
                out.writeChange(sequence, RowKind.DELETE, old);
            }
            index.remove();
            vectors.delete(oldLocation);
            return new KeyValue(sequence, RowKind.DELETE, change.row());
        }
        BinaryRowData row = bytes.encode(result.row());
        if (old != null && bytes.sameRow(old, row)) {
            return null;
        }
        if (out != null) {
            if (old == null) {
                out.writeChange(sequence, RowKind.INSERT, row);
            } else {
                out.writeChange(sequence, RowKind.UPDATE_BEFORE, old);
                out.writeChange(sequence, RowKind.UPDATE_AFTER, row);
            }
        }
        if (old != null) {
            vectors.delete(oldLocation);
        }
        if (!index.put(row)) {
            throw tooLarge();
        }
        return new KeyValue(sequence, old == null ? RowKind.INSERT : RowKind.UPDATE_AFTER, row);
    }

    /** Where the row the last {@link #apply} returned was written. */
    public void placed(long location) {
        index.setLocation(location);
    }

    /**
     * After a compaction replaced {@code inputs} with {@code output}: the rows of {@code output}
     * (each with its position) that are still their key's row get their new location; those a flush
     * replaced meanwhile are deleted in the output's vector. REQUIRES: the index is built and
     * pinned.
     */
    void relocate(Set<String> inputs, DataFile output) throws IOException {
        try (ParquetDataReader reader = opener.open(output, schema.fileType())) {
            for (RowData row = reader.next(); row != null; row = reader.next()) {
                long location = vectors.location(output.fileName(), reader.position());
                RowData table = schema.fromFileRow(row).row();
                if (index.find(table) != null && inputs.contains(vectors.file(index.location()))) {
                    index.setLocation(location);
                } else {
                    vectors.delete(location);
                }
            }
        }
    }

    private IllegalStateException tooLarge() {
        LookupMemory memory = index.memory();
        return new IllegalStateException(
                String.format(
                        "The current rows of a bucket of a table with deletion vectors do not fit"
                                + " in the writer's lookup memory (%d bytes in use, limit %d):"
                                + " raise 'lookup.cache-max-memory-size' or add buckets",
                        memory.used(), memory.limit()));
    }
}
