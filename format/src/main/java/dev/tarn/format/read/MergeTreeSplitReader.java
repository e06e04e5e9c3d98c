package dev.tarn.format.read;

import dev.tarn.format.Table;
import dev.tarn.format.lsm.FileRunMerge;
import dev.tarn.format.lsm.KeyValue;
import dev.tarn.format.lsm.KeyValueSchema;
import dev.tarn.format.lsm.MergeFunction;
import dev.tarn.format.lsm.MergeFunctions;
import dev.tarn.format.lsm.Sections;
import dev.tarn.format.lsm.SortedRun;
import dev.tarn.format.lsm.SortedRunReader;
import dev.tarn.format.schema.LsmOptions;
import dev.tarn.format.schema.MergeEngine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * Reads one bucket of a primary-key table as of a snapshot: the current row of every key, merged on
 * read. Section by section ({@link Sections}), a single sorted run is streamed as it is (without
 * reading its sequence numbers, which only order runs) and several runs go through a {@link
 * FileRunMerge} with the table's merge engine; tombstones and other retractions are dropped. Only a
 * filter on key columns may prune row groups here (a filter on other columns could skip a key's
 * newest version and let an older one through); all other filtering is the engine's, after the
 * merge.
 */
final class MergeTreeSplitReader implements TableRead.SplitReader {

    private final KeyValueSchema schema;
    private final SortedRunReader.FileOpener opener;

    /** Opens a file of a lone run: the merged columns and the row kind, no sequence number. */
    private final SortedRunReader.FileOpener singleRunOpener;

    /** Position of the row kind in rows read by {@link #singleRunOpener}. */
    private final int singleRunKind;

    private final MergeFunction merge;
    private final Iterator<List<SortedRun>> sections;
    private final ProjectedRowData projected;
    private final List<SortedRunReader> openReaders = new ArrayList<>();
    @Nullable private Iterator<KeyValue> current;
    @Nullable private SortedRunReader single;
    private long bytesRead;

    MergeTreeSplitReader(
            Table table, Split split, RowType readType, @Nullable Predicate keyFilter) {
        KeyValueSchema full = KeyValueSchema.of(table.schema());
        RowType mergedType = mergedType(table, readType);
        int[] keys =
                table.schema().primaryKeys().stream()
                        .mapToInt(k -> mergedType.getFieldNames().indexOf(k))
                        .toArray();
        this.schema = new KeyValueSchema(mergedType, keys);
        DataFileOpener files =
                new DataFileOpener(
                        table,
                        table.bucketPath(split.partition(), split.bucket()),
                        full.fileType(),
                        keyFilter,
                        "snapshot " + split.snapshotId());
        RowType fileReadType = schema.fileType();
        this.opener = file -> files.open(file, fileReadType);
        List<RowType.RowField> kindOnly = new ArrayList<>(mergedType.getFields());
        kindOnly.add(fileReadType.getFields().get(fileReadType.getFieldCount() - 1));
        RowType singleRunType = new RowType(false, kindOnly);
        this.singleRunOpener = file -> files.open(file, singleRunType);
        this.singleRunKind = mergedType.getFieldCount();
        this.merge =
                MergeFunctions.create(
                        table.config().lsm().mergeEngine(),
                        mergedType,
                        keys,
                        mergedType.getFieldCount() == full.tableType().getFieldCount()
                                ? table.options()
                                : Map.of());
        this.sections = Sections.of(full, split.files()).iterator();
        int[] projection =
                readType.getFieldNames().stream()
                        .mapToInt(name -> mergedType.getFieldNames().indexOf(name))
                        .toArray();
        this.projected = ProjectedRowData.from(projection);
    }

    /**
     * The columns to read and merge: all of them, unless the engine picks one whole version per key
     * ({@link MergeEngine#picksWholeVersion}) without ordering by columns or dropping retractions:
     * then the key and the read columns, in table order.
     */
    private static RowType mergedType(Table table, RowType readType) {
        RowType all = table.schema().rowType();
        if (!table.config().lsm().mergeEngine().picksWholeVersion()
                || table.options().containsKey(LsmOptions.SEQUENCE_FIELD.key())
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

    @Override
    @Nullable
    public RowData next() throws IOException {
        try {
            while (true) {
                if (single != null) {
                    RowData row = nextOfSingleRun();
                    if (row != null) {
                        return projected.replaceRow(row);
                    }
                    closeReaders();
                    single = null;
                    continue;
                }
                if (current == null) {
                    if (!sections.hasNext()) {
                        return null;
                    }
                    List<SortedRun> section = sections.next();
                    if (section.size() == 1) {
                        single =
                                new SortedRunReader(
                                        section.get(0).files(), singleRunOpener, schema);
                        openReaders.add(single);
                        continue;
                    }
                    current = open(section);
                }
                while (current.hasNext()) {
                    KeyValue kv = current.next();
                    if (!kv.isRetraction()) {
                        RowData row = kv.row();
                        row.setRowKind(RowKind.INSERT);
                        return projected.replaceRow(row);
                    }
                }
                closeReaders();
                current = null;
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** The next row of the lone run that is not a retraction, or null at its end. */
    @Nullable
    private RowData nextOfSingleRun() {
        RowData row;
        while ((row = single.nextRow()) != null) {
            if (!KeyValue.isRetraction(RowKind.fromByteValue(row.getByte(singleRunKind)))) {
                row.setRowKind(RowKind.INSERT);
                return row;
            }
        }
        return null;
    }

    private Iterator<KeyValue> open(List<SortedRun> runs) {
        for (SortedRun run : runs) {
            openReaders.add(new SortedRunReader(run.files(), opener, schema));
        }
        if (openReaders.size() == 1) {
            return openReaders.get(0);
        }
        return new FileRunMerge(openReaders, schema.keys(), merge, true);
    }

    @Override
    public long bytesRead() {
        return bytesRead + openReaders.stream().mapToLong(SortedRunReader::bytesRead).sum();
    }

    @Override
    public void close() throws IOException {
        closeReaders();
    }

    private void closeReaders() throws IOException {
        for (SortedRunReader reader : openReaders) {
            reader.close();
            bytesRead += reader.bytesRead();
        }
        openReaders.clear();
    }
}
