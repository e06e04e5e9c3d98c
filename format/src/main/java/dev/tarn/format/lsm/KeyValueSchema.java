package dev.tarn.format.lsm;

import dev.tarn.format.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.types.RowKind;

/**
 * How a primary-key table's changes are laid out in its data files (SPEC.md, "Primary-key data
 * files"): the table's columns, then {@value #SEQUENCE_COLUMN} and {@value #KIND_COLUMN}; each file
 * sorted by key with one change per key. Also encodes and orders the key ranges files record.
 * Thread-safe; a {@link LastKey} is not and belongs to one writer.
 */
public final class KeyValueSchema {

    /** Column of a change's sequence number, BIGINT NOT NULL. */
    public static final String SEQUENCE_COLUMN = "_SEQUENCE_NUMBER";

    /** Column of a change's kind as {@link RowKind#toByteValue()}, TINYINT NOT NULL. */
    public static final String KIND_COLUMN = "_ROW_KIND";

    private final RowType tableType;
    private final int tableArity;
    private final RowType fileType;
    private final int[] keyIndexes;
    private final KeyComparator keys;
    private final KeyComparator keyRowOrder;

    public KeyValueSchema(RowType tableType, int[] keyIndexes) {
        this.tableType = tableType;
        this.tableArity = tableType.getFieldCount();
        this.keyIndexes = keyIndexes.clone();
        this.keys = new KeyComparator(tableType, keyIndexes);
        List<RowType.RowField> fields = new ArrayList<>(tableType.getFields());
        for (RowType.RowField f : fields) {
            if (f.getName().equals(SEQUENCE_COLUMN) || f.getName().equals(KIND_COLUMN)) {
                throw new IllegalArgumentException(
                        "Column name "
                                + f.getName()
                                + " is reserved in primary-key tables; rename the column");
            }
        }
        fields.add(new RowType.RowField(SEQUENCE_COLUMN, new BigIntType(false)));
        fields.add(new RowType.RowField(KIND_COLUMN, new TinyIntType(false)));
        this.fileType = new RowType(false, fields);
        List<RowType.RowField> keyFields = new ArrayList<>();
        int[] keyPositions = new int[keyIndexes.length];
        for (int i = 0; i < keyIndexes.length; i++) {
            keyFields.add(tableType.getFields().get(keyIndexes[i]));
            keyPositions[i] = i;
        }
        RowType keyType = new RowType(false, keyFields);
        this.keyRowOrder = new KeyComparator(keyType, keyPositions);
    }

    public static KeyValueSchema of(TableSchema schema) {
        return new KeyValueSchema(schema.rowType(), schema.fieldIndexes(schema.primaryKeys()));
    }

    /** The table's columns: what changes hold and what readers return. */
    public RowType tableType() {
        return tableType;
    }

    /** The columns of a data file: the table's, then sequence and kind. */
    public RowType fileType() {
        return fileType;
    }

    public int[] keyIndexes() {
        return keyIndexes.clone();
    }

    /** Orders table rows (and file rows, whose leading columns are the table's) by key. */
    public KeyComparator keys() {
        return keys;
    }

    /**
     * Whether a stored row of {@link #KIND_COLUMN} {@code kind} is a tombstone: it removes the
     * key's current row ({@link KeyValue#isRetraction()}).
     */
    public static boolean isTombstone(RowKind kind) {
        return KeyValue.isRetraction(kind);
    }

    /** The change a file row holds; the row is the file reader's, reused by its next row. */
    public KeyValue fromFileRow(RowData fileRow) {
        int n = tableArity;
        return new KeyValue(
                fileRow.getLong(n), RowKind.fromByteValue(fileRow.getByte(n + 1)), fileRow);
    }

    /**
     * Keeps the key of the last row it saw as bytes, in a buffer reused across calls: a writer
     * remembers a file's last key without keeping the row, and without allocating per row.
     */
    public final class LastKey {

        private final BinaryRowEncoder encoder;
        private final ProjectedRowData view = ProjectedRowData.from(keyIndexes);
        private int size;

        private LastKey() {
            List<RowType.RowField> keyFields = new ArrayList<>();
            for (int i : keyIndexes) {
                keyFields.add(tableType.getFields().get(i));
            }
            this.encoder = new BinaryRowEncoder(new RowType(false, keyFields));
        }

        public void set(RowData row) {
            size = encoder.encode(view.replaceRow(row), RowKind.INSERT);
        }

        /** A copy of the last key set. */
        public byte[] bytes() {
            return java.util.Arrays.copyOf(encoder.buffer(), size);
        }

        /** Bytes of the last key set: equal keys have equal bytes. */
        public int size() {
            return size;
        }
    }

    public LastKey newLastKey() {
        return new LastKey();
    }

    /** Orders two rows of the table's (or the file's) type by their keys. */
    public int compareKeys(RowData a, RowData b) {
        return keys.compare(a, b);
    }

    /** Orders two keys encoded by a {@link LastKey}. */
    public int compareKeys(byte[] a, byte[] b) {
        return keyRowOrder.compare(keyRow(a), keyRow(b));
    }

    /** Orders the key of a table row against a key encoded by a {@link LastKey}. */
    public int compareToKey(RowData row, byte[] key) {
        return keyRowOrder.compare(ProjectedRowData.from(keyIndexes).replaceRow(row), keyRow(key));
    }

    private BinaryRowData keyRow(byte[] bytes) {
        BinaryRowData row = new BinaryRowData(keyIndexes.length);
        row.pointTo(MemorySegmentFactory.wrap(bytes), 0, bytes.length);
        return row;
    }
}
