package dev.tarn.format.read;

import dev.tarn.format.lsm.KeyValueSchema;
import dev.tarn.format.lsm.RowBytes;
import dev.tarn.format.lsm.lookup.CurrentRows;
import dev.tarn.format.manifest.BucketId;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.schema.StreamConfig.ChangelogProducer;
import dev.tarn.format.schema.TableConfig;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.schema.TableSchema.TableKind;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * A streaming read's completion of a primary-key table's upserts into a changelog (SPEC.md,
 * "Streaming reads", completed changelog): the table stores no changelog ({@code
 * changelog-producer} = {@code none}), so each snapshot's changes are the new versions of its keys;
 * this reader keeps the current row of every key of its buckets ({@link CurrentRows}) and turns
 * each change into what it does to them: {@code +I} for a new key, {@code -U} with the row it
 * replaces and {@code +U}, {@code -D} with the row it deletes, nothing for a delete of a missing
 * key or a version equal to the current row. Flink then needs no normalizing operator.
 *
 * <p>A bucket's rows are those of the full phase's split of it, kept as they pass; a bucket this
 * reader has not seen whole (a restored reader, a bucket that gave way to others in memory) is read
 * again from its files as of the snapshot before the changes in hand: the snapshot's files but the
 * split's. A bucket too large for the memory is looked up in those files at each snapshot instead,
 * a merge join in key order. Positions count the rows returned, so a restore replays the changes up
 * to it against the rebuilt rows and resumes exactly there, between a {@code -U} and its {@code +U}
 * too.
 *
 * <p>One instance serves one source reader: its splits of a bucket come in snapshot order. Not
 * thread-safe.
 */
final class ChangelogCompletion {

    private final TableContext table;
    private final TableRead raw;
    private final RowType rowType;
    @Nullable private final int[] projection;
    private final CurrentRows rows;
    private final Map<BucketId, CurrentRows.Bucket> buckets = new HashMap<>();
    private final RowBytes bytes;

    /**
     * @param raw reads the splits as they are, with the read's columns
     * @param sharing another completion whose memory this one shares (of another fetcher thread),
     *     or null for memory of its own ({@code streaming-read.lookup-memory})
     */
    ChangelogCompletion(TableContext table, TableRead raw, @Nullable ChangelogCompletion sharing) {
        this.table = table;
        RowType readType = raw.readType();
        this.rowType = withKeys(table.schema(), readType);
        this.raw = rowType.equals(readType) ? raw : raw.withReadType(rowType);
        this.projection =
                rowType.equals(readType)
                        ? null
                        : readType.getFieldNames().stream()
                                .mapToInt(n -> rowType.getFieldNames().indexOf(n))
                                .toArray();
        int[] keys =
                table.schema().primaryKeys().stream()
                        .mapToInt(k -> rowType.getFieldNames().indexOf(k))
                        .toArray();
        KeyValueSchema schema = new KeyValueSchema(rowType, keys);
        this.rows =
                sharing == null
                        ? new CurrentRows(
                                schema, table.config().stream().completion().memoryBytes())
                        : new CurrentRows(schema, sharing.rows);
        this.bytes = new RowBytes(rowType);
    }

    /**
     * Whether a streaming read of {@code table} completes its upserts, given whether it sees the
     * whole table (a full phase, or every change from the first snapshot): only then is a key's
     * current row known to the read's consumers too. The table must store no changelog, and its
     * engine must make each change the key's new row: deduplicate, without a sequence field or
     * dropped deletes.
     */
    static boolean applies(TableContext table, boolean seesWholeTable) {
        TableConfig config = table.config();
        return seesWholeTable
                && table.kind() == TableKind.PRIMARY_KEY
                && config.stream().completion().enabled()
                && config.stream().changelogProducer() == ChangelogProducer.NONE
                && config.lsm().newestVersionIsRow();
    }

    /** The read's columns and, after them, the key columns it does not return. */
    private static RowType withKeys(TableSchema schema, RowType readType) {
        List<RowType.RowField> fields = new ArrayList<>(readType.getFields());
        for (RowType.RowField f : schema.rowType().getFields()) {
            if (schema.primaryKeys().contains(f.getName())
                    && !readType.getFieldNames().contains(f.getName())) {
                fields.add(f);
            }
        }
        return new RowType(readType.isNullable(), fields);
    }

    /**
     * Opens {@code split}, reading its bucket's rows first if this reader does not hold them.
     *
     * @throws UncheckedIOException if they cannot be read
     */
    TableRead.SplitReader open(Split split) {
        try {
            return switch (split.kind()) {
                case SNAPSHOT -> new Passing(split, false);
                case DELTA -> new Resolving(split);
                case RETRACT -> new Passing(split, true);
                case CHANGELOG ->
                        throw new IllegalStateException(
                                "A read that completes upserts got stored changelog files: "
                                        + split);
                case SNAPSHOT_BY_FILE ->
                        throw new IllegalStateException(
                                "A read that completes upserts keeps each bucket's rows in key"
                                        + " order, so its full phase is merged; it got a split"
                                        + " planned file by file: "
                                        + split);
            };
        } catch (IOException e) {
            throw new UncheckedIOException(
                    String.format(
                            "Cannot read the rows of bucket %d of partition %s of table %s as of"
                                    + " snapshot %d, which the changes this streaming read"
                                    + " completes replace: %s",
                            split.bucket(),
                            split.partition(),
                            table.name(),
                            split.snapshotId(),
                            e.getMessage()),
                    e);
        }
    }

    /** Bytes the buckets' rows take in memory now. */
    long memoryBytes() {
        return rows.usedBytes();
    }

    private CurrentRows.Bucket bucket(Split split) {
        return buckets.computeIfAbsent(
                new BucketId(split.partition(), split.bucket()), b -> rows.newBucket());
    }

    /**
     * The bucket's files before the changes of {@code split}: those of its snapshot but the ones
     * the split adds, as a split of current rows, merged without deletion vectors. The snapshot's
     * vectors would hide the very rows its changes replace; merged by the deduplicate engine (the
     * only one completed), the rows a vector marks are older versions or tombstones, which the
     * merge leaves out anyway.
     */
    private Split before(Split split) {
        Snapshot snapshot = table.snapshotReader().snapshot(split.snapshotId());
        Set<String> added = new HashSet<>();
        split.files().forEach(f -> added.add(f.fileName()));
        List<DataFile> files = new ArrayList<>();
        for (ManifestEntry e :
                table.snapshotReader()
                        .filesByBucket(snapshot)
                        .getOrDefault(new BucketId(split.partition(), split.bucket()), List.of())) {
            if (!added.contains(e.file().fileName())) {
                files.add(e.file());
            }
        }
        return new Split(
                split.snapshotId(), split.partition(), split.bucket(), split.totalBuckets(), files);
    }

    /**
     * A split's rows as the completed changelog: positions count the rows returned, and a seek
     * replays up to one ({@link TableRead.SplitReader#seek}).
     */
    private abstract class Completing implements TableRead.SplitReader {

        final TableRead.SplitReader in;
        final CurrentRows.Bucket bucket;
        @Nullable private final ProjectedRowData out;
        long returned;
        long extraBytes;

        Completing(Split split) throws IOException {
            this.bucket = bucket(split);
            this.out = projection == null ? null : ProjectedRowData.from(projection);
            this.in = raw.open(split);
        }

        /** {@code row} as the read returns it, counted, of kind {@code kind}. */
        final RowData emit(RowData row, RowKind kind) {
            row.setRowKind(kind);
            returned++;
            return out == null ? row : out.replaceRow(row);
        }

        @Override
        public final long rowsInFile() {
            return returned;
        }

        @Override
        public final long bytesRead() {
            return in.bytesRead() + extraBytes;
        }

        @Override
        public void close() throws IOException {
            bucket.close();
            in.close();
        }
    }

    /**
     * A split whose rows pass one for one: a full phase's, kept as the bucket's rows, or the rows
     * an overwrite removed, as DELETEs taken out of them.
     */
    private final class Passing extends Completing {

        private final boolean removes;
        private boolean live;

        Passing(Split split, boolean removes) throws IOException {
            super(split);
            this.removes = removes;
            live = bucket.open();
            if (!removes) {
                live = bucket.reset();
            }
        }

        @Override
        @Nullable
        public RowData next() throws IOException {
            RowData row = in.next();
            if (row == null) {
                return null;
            }
            if (removes) {
                if (live && bucket.find(row) != null) {
                    bucket.remove();
                }
                return emit(row, RowKind.DELETE);
            }
            BinaryRowData copy = bytes.encode(row);
            if (live) {
                bucket.find(copy);
                live = bucket.put(copy);
            }
            return emit(copy, RowKind.INSERT);
        }
    }

    /** A snapshot's changes of a bucket, each turned into what it does to the current rows. */
    private final class Resolving extends Completing {

        private final Split split;
        @Nullable private Split before;
        private boolean live;
        @Nullable private SortedLookup files;
        @Nullable private BinaryRowData after;

        Resolving(Split split) throws IOException {
            super(split);
            this.split = split;
            live = bucket.open() || rebuild();
            if (!live) {
                files = new SortedLookup(raw, rows, before());
            }
        }

        /** The bucket's files before the split's changes, planned once from the manifests. */
        private Split before() {
            if (before == null) {
                before = ChangelogCompletion.this.before(split);
            }
            return before;
        }

        /** Reads the bucket's rows before the split's changes; false if they do not fit. */
        private boolean rebuild() throws IOException {
            if (!bucket.reset()) {
                return false;
            }
            Split before = before();
            if (before.files().isEmpty()) {
                return true;
            }
            try (TableRead.SplitReader rows = raw.open(before)) {
                for (RowData row = rows.next(); row != null; row = rows.next()) {
                    BinaryRowData copy = bytes.encode(row);
                    bucket.find(copy);
                    if (!bucket.put(copy)) {
                        extraBytes += rows.bytesRead();
                        return false;
                    }
                }
                extraBytes += rows.bytesRead();
            }
            return true;
        }

        @Override
        @Nullable
        public RowData next() throws IOException {
            if (after != null) {
                BinaryRowData row = after;
                after = null;
                keep(row);
                return emit(row, RowKind.UPDATE_AFTER);
            }
            while (true) {
                RowData change = in.next();
                if (change == null) {
                    return null;
                }
                RowData old = live ? bucket.find(change) : files.find(change);
                RowKind kind = change.getRowKind();
                if (kind == RowKind.DELETE || kind == RowKind.UPDATE_BEFORE) {
                    if (old == null) {
                        continue;
                    }
                    if (live) {
                        bucket.remove();
                    }
                    return emit(old, RowKind.DELETE);
                }
                BinaryRowData row = bytes.encode(change);
                if (old == null) {
                    keep(row);
                    return emit(row, RowKind.INSERT);
                }
                if (bytes.sameRow(old, row)) {
                    continue;
                }
                // The new row follows at the next call, which keeps it: the old one stays valid
                // until then, and nothing else is looked up meanwhile.
                after = row;
                return emit(old, RowKind.UPDATE_BEFORE);
            }
        }

        /** Makes {@code row} its key's current row (the key of the last lookup). */
        private void keep(BinaryRowData row) throws IOException {
            if (live && !bucket.put(row)) {
                // Out of memory: the rest of the split looks up the files before it.
                live = false;
                files = new SortedLookup(raw, rows, before());
            }
        }

        @Override
        public void close() throws IOException {
            try {
                if (files != null) {
                    extraBytes += files.bytesRead();
                    files.close();
                }
            } finally {
                super.close();
            }
        }
    }
}
