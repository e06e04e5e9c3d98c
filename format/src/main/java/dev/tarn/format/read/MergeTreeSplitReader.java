package dev.tarn.format.read;

import dev.tarn.format.lsm.KeyValueSchema;
import dev.tarn.format.lsm.merge.MergeFunctions;
import dev.tarn.format.lsm.run.BucketTreeReader;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.schema.MergeEngine;
import dev.tarn.format.table.DataFileOpener;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Reads one bucket of a primary-key table as of a snapshot: the current row of every key, merged on
 * read by a {@link BucketTreeReader} over the columns the merge needs (each file without the rows
 * its deletion vector deletes), then projected to the read columns. Only a filter on key columns
 * may prune row groups here (a filter on other columns could skip a key's newest version and let an
 * older one through); all other filtering is the engine's, after the merge.
 */
final class MergeTreeSplitReader implements TableRead.SplitReader {

    private final BucketTreeReader tree;
    private final ProjectedRowData projected;

    /**
     * Whether the read columns are the merged ones, in order: rows then go out as the tree gives
     * them, so a consumer sees the reader's own row (and, for a row of a decoded batch, can copy
     * its strings as bytes).
     */
    private final boolean identity;

    /**
     * @param changes read each key's merged change, retractions as DELETEs ({@link
     *     BucketTreeReader#asChanges}), instead of the current rows
     */
    MergeTreeSplitReader(
            TableContext table,
            Split split,
            RowType readType,
            @Nullable Predicate keyFilter,
            boolean changes) {
        KeyValueSchema full = KeyValueSchema.of(table.schema());
        RowType mergedType = mergedType(table, readType);
        int[] keys =
                table.schema().primaryKeys().stream()
                        .mapToInt(k -> mergedType.getFieldNames().indexOf(k))
                        .toArray();
        KeyValueSchema schema = new KeyValueSchema(mergedType, keys);
        DataFileOpener files =
                new DataFileOpener(
                        table,
                        table.bucketPath(split.partition(), split.bucket()),
                        full.fileType(),
                        keyFilter,
                        "snapshot " + split.snapshotId());
        this.tree =
                new BucketTreeReader(
                        schema,
                        split.files(),
                        (file, type) -> files.open(file, type, 0, split.vector(file)),
                        MergeFunctions.create(
                                table.config().lsm().mergeEngine(),
                                mergedType,
                                keys,
                                mergedType.getFieldCount() == full.tableType().getFieldCount()
                                        ? table.options()
                                        : Map.of()));
        if (changes) {
            tree.asChanges();
        }
        int[] projection =
                readType.getFieldNames().stream()
                        .mapToInt(name -> mergedType.getFieldNames().indexOf(name))
                        .toArray();
        this.projected = ProjectedRowData.from(projection);
        boolean identity = projection.length == mergedType.getFieldCount();
        for (int i = 0; i < projection.length && identity; i++) {
            identity = projection[i] == i;
        }
        this.identity = identity;
    }

    /**
     * The columns to read and merge: all of them, unless the engine picks one whole version per key
     * ({@link MergeEngine#picksWholeVersion}) without ordering by columns or dropping retractions:
     * then the key and the read columns, in table order.
     */
    private static RowType mergedType(TableContext table, RowType readType) {
        RowType all = table.schema().rowType();
        if (!table.config().lsm().mergeEngine().picksWholeVersion()
                || table.config().lsm().ordersBySequenceField()
                || table.config().lsm().ignoreDelete()) {
            return all;
        }
        List<RowType.RowField> fields = new ArrayList<>();
        for (RowType.RowField f : all.getFields()) {
            if (readType.getFieldNames().contains(f.getName())
                    || table.schema().primaryKeys().contains(f.getName())) {
                fields.add(f);
            }
        }
        return new RowType(false, fields);
    }

    private long returned;

    @Override
    @Nullable
    public RowData next() throws IOException {
        RowData row = tree.next();
        if (row == null) {
            return null;
        }
        returned++;
        // The tree's row may carry system columns after the merged ones: then it is projected.
        return identity && row.getArity() == projected.getArity() ? row : projected.replaceRow(row);
    }

    @Override
    public int buffered() {
        return tree.buffered();
    }

    @Override
    public long rowsInFile() {
        return returned;
    }

    @Override
    public long bytesRead() {
        return tree.bytesRead();
    }

    @Override
    public void close() throws IOException {
        tree.close();
    }
}
