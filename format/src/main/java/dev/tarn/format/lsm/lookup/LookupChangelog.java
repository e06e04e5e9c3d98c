package dev.tarn.format.lsm.lookup;

import dev.tarn.format.lsm.KeyValue;
import dev.tarn.format.lsm.KeyValueSchema;
import dev.tarn.format.lsm.RowBytes;
import dev.tarn.format.lsm.merge.MergeFunction;
import dev.tarn.format.lsm.run.BucketTreeReader;
import dev.tarn.format.lsm.run.FileRunMerge;
import dev.tarn.format.lsm.run.KeyValueFileWriter;
import dev.tarn.format.lsm.run.SortedRunReader;
import dev.tarn.format.manifest.DataFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.types.RowKind;

/**
 * The changelog of one bucket under {@code changelog-producer} = {@code lookup} (SPEC.md,
 * "Changelog files"). At each flush, for every key the flush changes, in key order: the key's
 * previous row (the merged current row of the bucket's files before the flush), the new row (the
 * flush's merged change applied to it with the table's merge engine), and as changelog rows the
 * difference: {@code +I} new, {@code -U} old and {@code +U} new, {@code -D} old, or nothing when
 * the row stays the same (first-row: a key already present) or a missing key is deleted.
 *
 * <p>Previous rows come from a {@link LookupIndex} kept across flushes: built from the bucket's
 * files at its first flush, then updated with each flush's new rows, so a flush costs a step of a
 * merge join per changed key. A bucket whose index does not fit in the table write's {@link
 * LookupMemory} reads them from its files at each flush instead ({@link PreviousRows}); an index
 * evicted by another bucket is rebuilt when next needed.
 *
 * <p>Where the new rows are the flush's changes (the writer's before-images setting), a flush
 * stores only what its level-0 files lack: the previous rows, as a before-image file per flush
 * (SPEC.md, "Changelog files"), which readers pair with those files. That is under half the rows of
 * a full changelog of updates, and no copy of the new rows.
 *
 * <p>A writer awaiting its restore does not know the bucket's published files: what it flushes
 * meanwhile is kept as pending and looked up at {@link #catchUp}, as full changelog rows (the
 * level-0 files are flushed by then, without a before-image file). Not thread-safe: the writer's
 * thread, or the flush thread it waits for, calls it.
 *
 * <p>With deletion vectors the index also holds where each key's row lies; this class builds, pins
 * and drops it as without, and a flush's changes go through {@link #located} ({@link LocatedRows}).
 */
public final class LookupChangelog {

    private final KeyValueSchema schema;
    private final Supplier<MergeFunction> merges;
    private final MergeFunction merge;
    private final BucketTreeReader.ColumnOpener opener;
    private final Supplier<List<DataFile>> treeFiles;
    @Nullable private final KeyValueFileWriter out;
    @Nullable private final KeyValueFileWriter beforeImages;
    @Nullable private final LocatedRows located;
    private final LookupIndex index;
    private final LookupMemory memory;
    private final RowBytes bytes;

    private boolean caughtUp;
    private boolean unindexable;
    private final List<DataFile> pending = new ArrayList<>();
    private List<DataFile> extraBase = List.of();
    private List<DataFile> base = List.of();
    @Nullable private PreviousRows scan;

    /** Whether this flush stores before-images, and the least and greatest sequence it applied. */
    private boolean imaging;

    private long flushMin;
    private long flushMax;

    /**
     * @param treeFiles the files of the bucket's tree as its writer knows them
     */
    public LookupChangelog(
            KeyValueSchema schema,
            Supplier<MergeFunction> merges,
            BucketTreeReader.ColumnOpener opener,
            Supplier<List<DataFile>> treeFiles,
            KeyValueFileWriter out,
            @Nullable KeyValueFileWriter beforeImages,
            LookupMemory memory) {
        this(schema, merges, opener, treeFiles, out, beforeImages, memory, null);
    }

    /**
     * @param out where changelog rows go; null for none (a table with deletion vectors whose
     *     changelog producer is not {@code lookup})
     * @param vectors with deletion vectors: the bucket's, which {@link #located} marks
     */
    public LookupChangelog(
            KeyValueSchema schema,
            Supplier<MergeFunction> merges,
            BucketTreeReader.ColumnOpener opener,
            Supplier<List<DataFile>> treeFiles,
            @Nullable KeyValueFileWriter out,
            @Nullable KeyValueFileWriter beforeImages,
            LookupMemory memory,
            @Nullable BucketVectors vectors) {
        this.schema = schema;
        this.merges = merges;
        this.merge = merges.get();
        this.opener = opener;
        this.treeFiles = treeFiles;
        this.out = out;
        this.beforeImages = beforeImages;
        this.memory = memory;
        this.index = new LookupIndex(schema, memory, vectors != null);
        this.located =
                vectors == null
                        ? null
                        : new LocatedRows(schema, merge, opener, out, index, vectors);
        this.bytes = new RowBytes(schema.tableType());
        this.caughtUp = true;
    }

    /** With deletion vectors, each key's row and location, for a flush's changes; else null. */
    @Nullable
    public LocatedRows located() {
        return located;
    }

    /** The writer does not know the bucket's published files until {@link #catchUp}. */
    public void awaitCatchUp() {
        caughtUp = false;
    }

    /**
     * Starts a flush whose changes come to {@link #apply}; false if the writer does not know the
     * bucket's published files yet: then the flush's files are {@linkplain #addPending pending}.
     */
    public boolean begin() throws IOException {
        if (!caughtUp) {
            return false;
        }
        open(base(List.of()));
        imaging = beforeImages != null;
        return true;
    }

    /** Files flushed while not caught up: looked up at {@link #catchUp}. */
    public void addPending(List<DataFile> files) {
        pending.addAll(files);
    }

    /**
     * The writer now knows the bucket's published files: they are in its tree, or, for a writer
     * still awaiting its restore at the end of its input, {@code published}, for lookups only.
     * Looks up the pending files' changes, oldest first.
     */
    public void catchUp(Collection<DataFile> published) throws IOException {
        if (caughtUp) {
            return;
        }
        extraBase = List.copyOf(published);
        caughtUp = true;
        if (pending.isEmpty()) {
            return; // The index is built at the first flush, on its thread.
        }
        List<DataFile> files = new ArrayList<>(pending);
        pending.clear();
        open(base(files));
        imaging = false;
        files.sort(Comparator.comparingLong(f -> f.sequence().max()));
        List<SortedRunReader> runs = new ArrayList<>();
        try {
            for (DataFile f : files) {
                runs.add(new SortedRunReader(List.of(f), this::openFully, schema));
            }
            FileRunMerge changes = new FileRunMerge(runs, schema.keys(), merges.get(), false);
            while (changes.hasNext()) {
                apply(changes.next());
            }
        } finally {
            for (SortedRunReader run : runs) {
                run.close();
            }
            end();
        }
    }

    private dev.tarn.format.parquet.ParquetDataReader openFully(DataFile file) throws IOException {
        return opener.open(file, schema.fileType());
    }

    /** The bucket's files before the flush: the tree's and the extra ones, but {@code without}. */
    private List<DataFile> base(List<DataFile> without) {
        Set<String> skip = new HashSet<>();
        without.forEach(f -> skip.add(f.fileName()));
        List<DataFile> files = new ArrayList<>(extraBase);
        for (DataFile f : treeFiles.get()) {
            if (!skip.contains(f.fileName())) {
                files.add(f);
            }
        }
        return files;
    }

    private void open(List<DataFile> base) throws IOException {
        this.base = base;
        flushMin = Long.MAX_VALUE;
        flushMax = Long.MIN_VALUE;
        memory.pin(index);
        if (index.isDropped() && !unindexable) {
            build();
        }
        if (index.isDropped()) {
            scan = new PreviousRows(schema, base, opener, merges);
        }
    }

    /** Reads every current row of the files before the flush into the index, if they fit. */
    private void build() throws IOException {
        if (!index.reset()) {
            unindexable = index.tooLarge();
            return;
        }
        if (located != null) {
            located.build(base);
            return;
        }
        try (BucketTreeReader rows = new BucketTreeReader(schema, base, opener, merges.get())) {
            for (RowData row = rows.next(); row != null; row = rows.next()) {
                BinaryRowData copy = bytes.encode(row);
                index.find(copy);
                if (!index.put(copy)) {
                    // Alone over the limit: reading the files at each flush is all there is. Beside
                    // indexes in use: the next flush tries again.
                    unindexable = index.tooLarge();
                    return;
                }
            }
        }
    }

    /**
     * With deletion vectors, after a compaction replaced {@code inputs} with {@code output}: the
     * rows of {@code output} (each with its position) that are still their key's row get their new
     * location; those a flush replaced meanwhile are deleted in the output's vector.
     */
    public void relocate(Set<String> inputs, List<DataFile> outputs, boolean marksMeanwhile)
            throws IOException {
        memory.pin(index);
        try {
            if (index.isDropped()) {
                if (!marksMeanwhile) {
                    return; // Nothing to carry over; the index is built from the files later.
                }
                base = base(List.of());
                build();
            }
            for (DataFile output : outputs) {
                located.relocate(inputs, output);
            }
        } finally {
            memory.unpin(index);
        }
    }

    /**
     * Writes the changelog of one merged change of the flush and takes its new row in. The change
     * is valid until this returns. REQUIRES: {@link #begin} returned true; keys ascending.
     */
    public void apply(KeyValue change) throws IOException {
        RowData old = scan == null ? index.find(change.row()) : scan.find(change.row());
        if (imaging) {
            applyImaging(change, old);
            return;
        }
        merge.reset();
        if (old != null) {
            merge.add(new KeyValue(change.sequence() - 1, RowKind.INSERT, old));
        }
        merge.add(change);
        KeyValue result = merge.result();
        long sequence = change.sequence();
        if (result == null || result.isRetraction()) {
            delete(out, sequence, old);
            return;
        }
        BinaryRowData row = bytes.encode(result.row());
        putFull(sequence, old, row);
    }

    private void putFull(long sequence, @Nullable RowData old, BinaryRowData row)
            throws IOException {
        if (old == null) {
            out.writeChange(sequence, RowKind.INSERT, row);
        } else if (!bytes.sameRow(old, row)) {
            out.writeChange(sequence, RowKind.UPDATE_BEFORE, old);
            out.writeChange(sequence, RowKind.UPDATE_AFTER, row);
        } else {
            return;
        }
        take(row);
    }

    /**
     * The flush's change is the key's new row: stores the previous row alone, marked by what the
     * change does to it ({@code -U} replaced, {@code -D} deleted, {@code +U} unchanged); nothing
     * for a new key or a delete of a missing one.
     */
    private void applyImaging(KeyValue change, @Nullable RowData old) throws IOException {
        long sequence = change.sequence();
        flushMin = Math.min(flushMin, sequence);
        flushMax = Math.max(flushMax, sequence);
        if (change.isRetraction()) {
            delete(beforeImages, sequence, old);
            return;
        }
        BinaryRowData row = bytes.binary(change.row());
        if (old != null) {
            boolean same = bytes.sameRow(old, row);
            beforeImages.writeChange(
                    sequence, same ? RowKind.UPDATE_AFTER : RowKind.UPDATE_BEFORE, old);
            if (same) {
                return;
            }
        }
        take(row);
    }

    /** The key last looked up is deleted: stores its row, if any, as {@code -D} to {@code file}. */
    private void delete(KeyValueFileWriter file, long sequence, @Nullable RowData old)
            throws IOException {
        if (old != null) {
            file.writeChange(sequence, RowKind.DELETE, old);
            if (scan == null) {
                index.remove();
            }
        }
    }

    /** Makes {@code row} the current row of the key last looked up. */
    private void take(BinaryRowData row) {
        if (scan == null && !index.put(row)) {
            // Out of memory: the rest of the flush reads the files before it.
            unindexable = index.tooLarge();
            scan = new PreviousRows(schema, base, opener, merges);
        }
    }

    /** Ends the flush. */
    public void end() throws IOException {
        try {
            if (imaging && flushMin <= flushMax) {
                beforeImages.endFlush(flushMin, flushMax);
            }
        } finally {
            imaging = false;
            if (scan != null) {
                scan.close();
                scan = null;
            }
            memory.unpin(index);
        }
    }

    /** The bucket's files changed under the writer: the index is built again when next needed. */
    public void invalidate() {
        memory.pin(index);
        index.release();
        memory.unpin(index);
        unindexable = false;
        extraBase = List.of();
    }

    /**
     * Finishes the changelog files written since the last call: full ones (of a catch-up, whose
     * changes come first), then before-image files.
     */
    public List<DataFile> finish() throws IOException {
        List<DataFile> files = new ArrayList<>(out == null ? List.of() : out.finish());
        if (beforeImages != null) {
            files.addAll(beforeImages.finish());
        }
        return files;
    }

    public void close() {
        if (out != null) {
            out.abort();
        }
        if (beforeImages != null) {
            beforeImages.abort();
        }
        memory.pin(index);
        index.release();
        memory.forget(index);
    }
}
