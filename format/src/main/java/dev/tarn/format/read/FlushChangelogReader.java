package dev.tarn.format.read;

import dev.tarn.format.lsm.KeyValueSchema;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DataFile.SequenceRange;
import dev.tarn.format.table.DataFileOpener;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * Reads a changelog split that holds before-image files (SPEC.md, "Changelog files"): the changelog
 * of each flush is its before-images paired, by sequence number, with the new rows of the level-0
 * files it wrote, both in key order; full changelog files of the split (a writer's catch-up, whose
 * changes come first) are read as written. Per flush, a new row with
 *
 * <ul>
 *   <li>no before-image is {@code +I}, or nothing for a tombstone (a delete of a missing key);
 *   <li>a {@code -U} image is that row, then the new row as {@code +U};
 *   <li>a {@code -D} image is that row (the new row is its tombstone);
 *   <li>a {@code +U} image is nothing: the row stays the same.
 * </ul>
 *
 * <p>Its position is the unit (the full files, or one flush) and the rows returned from it; a seek
 * reads the unit again up to there.
 */
final class FlushChangelogReader implements TableRead.SplitReader {

    /**
     * What one flush changed, or the split's full changelog files ({@code newRows} empty), from
     * sequence number {@code first} on.
     */
    private record Unit(long first, List<DataFile> changelog, List<DataFile> newRows) {}

    private final Split split;
    private final DataFileOpener opener;
    private final RowType fileReadType;
    private final int sequenceIndex;
    private final int kindIndex;
    private final List<Unit> units;
    private final ProjectedRowData imageOut;
    private final ProjectedRowData rowOut;

    private int unitIndex = -1;
    private long rowsInUnit;
    private long bytesDone;
    @Nullable private FileSplitReader changelog;
    @Nullable private FileSplitReader newRows;

    /** The next before-image of the open flush, or null after its last. */
    @Nullable private RowData image;

    /** Whether {@link #image} was returned and the next one is due. */
    private boolean imageUsed;

    /** The new row to return as {@code +U} after its {@code -U} image. */
    @Nullable private RowData after;

    FlushChangelogReader(TableContext table, Split split, RowType readType) {
        this.split = split;
        KeyValueSchema full = KeyValueSchema.of(table.schema());
        List<RowType.RowField> system = full.fileType().getFields();
        List<RowType.RowField> fields = new ArrayList<>(readType.getFields());
        fields.add(system.get(system.size() - 2));
        fields.add(system.get(system.size() - 1));
        this.fileReadType = new RowType(false, fields);
        this.sequenceIndex = readType.getFieldCount();
        this.kindIndex = sequenceIndex + 1;
        // No key filter: a flush's images and new rows pair one for one, so none is skipped.
        this.opener =
                new DataFileOpener(
                        table,
                        table.bucketPath(split.partition(), split.bucket()),
                        full.fileType(),
                        null,
                        "changelog of snapshot " + split.snapshotId());
        this.units = units(split, full);
        int[] projection = new int[readType.getFieldCount()];
        for (int i = 0; i < projection.length; i++) {
            projection[i] = i;
        }
        this.imageOut = ProjectedRowData.from(projection);
        this.rowOut = ProjectedRowData.from(projection);
    }

    /** The split's files as units in sequence order; level-0 files of no flush are left out. */
    private static List<Unit> units(Split split, KeyValueSchema schema) {
        List<DataFile> fullFiles = new ArrayList<>();
        List<DataFile> level0 = new ArrayList<>();
        Map<SequenceRange, List<DataFile>> flushes = new LinkedHashMap<>();
        for (DataFile f : split.files()) {
            List<DataFile> into =
                    switch (f.content()) {
                        case BEFORE_IMAGES ->
                                flushes.computeIfAbsent(f.sequence(), r -> new ArrayList<>());
                        case DATA -> level0;
                        case CHANGELOG -> fullFiles;
                    };
            into.add(f);
        }
        List<Unit> units = new ArrayList<>();
        for (Map.Entry<SequenceRange, List<DataFile>> flush : flushes.entrySet()) {
            SequenceRange range = flush.getKey();
            List<DataFile> rows = new ArrayList<>();
            for (DataFile f : level0) {
                if (f.sequence().min() >= range.min() && f.sequence().max() <= range.max()) {
                    rows.add(f);
                }
            }
            if (rows.isEmpty()) {
                throw new IllegalStateException(
                        String.format(
                                "Before-image file %s of snapshot %d (bucket %d of partition %s)"
                                        + " covers sequence numbers [%d, %d], but the snapshot"
                                        + " added no level-0 file within them: its new rows are"
                                        + " missing",
                                flush.getValue().get(0).fileName(),
                                split.snapshotId(),
                                split.bucket(),
                                split.partition(),
                                range.min(),
                                range.max()));
            }
            rows.sort((a, b) -> schema.compareKeys(a.keyRange().min(), b.keyRange().min()));
            units.add(new Unit(range.min(), flush.getValue(), rows));
        }
        units.sort(Comparator.comparingLong(Unit::first));
        if (!fullFiles.isEmpty()) {
            // A catch-up's, of flushes before the writer knew the bucket's files: first.
            units.add(0, new Unit(fullFiles.get(0).sequence().min(), fullFiles, List.of()));
        }
        return units;
    }

    @Override
    @Nullable
    public RowData next() throws IOException {
        while (true) {
            if (unitIndex >= 0 && unitIndex < units.size()) {
                RowData row = nextOfUnit();
                if (row != null) {
                    rowsInUnit++;
                    return row;
                }
            }
            if (unitIndex + 1 >= units.size()) {
                unitIndex = units.size();
                closeUnit();
                return null;
            }
            open(unitIndex + 1);
        }
    }

    @Nullable
    private RowData nextOfUnit() throws IOException {
        if (newRows == null) {
            RowData row = changelog.next();
            return row == null ? null : out(rowOut, row, kindOf(row));
        }
        if (after != null) {
            RowData row = after;
            after = null;
            return out(rowOut, row, RowKind.UPDATE_AFTER);
        }
        while (true) {
            if (imageUsed) {
                image = changelog.next();
                imageUsed = false;
            }
            RowData row = newRows.next();
            if (row == null) {
                if (image != null) {
                    throw damaged("holds a before-image of sequence number " + sequence(image));
                }
                return null;
            }
            boolean tombstone = KeyValueSchema.isTombstone(kindOf(row));
            if (image == null || sequence(image) != sequence(row)) {
                if (!tombstone) {
                    return out(rowOut, row, RowKind.INSERT);
                }
                continue; // A delete of a missing key.
            }
            imageUsed = true;
            RowKind kind = kindOf(image);
            if (tombstone != (kind == RowKind.DELETE)) {
                throw damaged(
                        "pairs a "
                                + kind.shortString()
                                + " before-image of sequence number "
                                + sequence(image)
                                + " with a "
                                + (tombstone ? "tombstone" : "row"));
            }
            switch (kind) {
                case UPDATE_BEFORE -> {
                    after = row;
                    return out(imageOut, image, RowKind.UPDATE_BEFORE);
                }
                case DELETE -> {
                    return out(imageOut, image, RowKind.DELETE);
                }
                case UPDATE_AFTER -> {
                    // The row stays the same: no change.
                }
                default ->
                        throw damaged(
                                "holds a before-image of kind "
                                        + kind.shortString()
                                        + " at sequence number "
                                        + sequence(image));
            }
        }
    }

    private long sequence(RowData row) {
        return row.getLong(sequenceIndex);
    }

    private RowKind kindOf(RowData row) {
        return RowKind.fromByteValue(row.getByte(kindIndex));
    }

    private static RowData out(ProjectedRowData projected, RowData row, RowKind kind) {
        RowData out = projected.replaceRow(row);
        out.setRowKind(kind);
        return out;
    }

    private IllegalStateException damaged(String what) {
        Unit unit = units.get(unitIndex);
        return new IllegalStateException(
                String.format(
                        "The changelog of snapshot %d (bucket %d of partition %s) is damaged:"
                                + " before-image file %s %s, which its level-0 files %s do not"
                                + " match",
                        split.snapshotId(),
                        split.bucket(),
                        split.partition(),
                        unit.changelog().get(0).fileName(),
                        what,
                        unit.newRows().stream().map(DataFile::fileName).toList()));
    }

    private void open(int index) throws IOException {
        closeUnit();
        unitIndex = index;
        rowsInUnit = 0;
        Unit unit = units.get(index);
        changelog = new FileSplitReader(part(unit.changelog()), opener, fileReadType, false);
        if (!unit.newRows().isEmpty()) {
            newRows = new FileSplitReader(part(unit.newRows()), opener, fileReadType, false);
            image = changelog.next();
            imageUsed = false;
        }
    }

    private Split part(List<DataFile> files) {
        return new Split(
                split.snapshotId(),
                split.partition(),
                split.bucket(),
                split.totalBuckets(),
                files,
                split.kind());
    }

    private void closeUnit() throws IOException {
        after = null;
        image = null;
        for (FileSplitReader reader : new FileSplitReader[] {changelog, newRows}) {
            if (reader != null) {
                bytesDone += reader.bytesRead();
                reader.close();
            }
        }
        changelog = null;
        newRows = null;
    }

    @Override
    public int fileIndex() {
        return Math.max(0, Math.min(unitIndex, units.size() - 1));
    }

    @Override
    public long rowsInFile() {
        return rowsInUnit;
    }

    @Override
    public void seek(int unit, long rows) throws IOException {
        if (unit >= units.size()) {
            closeUnit();
            unitIndex = units.size();
            return;
        }
        open(unit);
        while (rowsInUnit < rows && nextOfUnit() != null) {
            rowsInUnit++;
        }
    }

    @Override
    public long bytesRead() {
        long open = 0;
        for (FileSplitReader reader : new FileSplitReader[] {changelog, newRows}) {
            open += reader == null ? 0 : reader.bytesRead();
        }
        return bytesDone + open;
    }

    @Override
    public void close() throws IOException {
        closeUnit();
    }
}
