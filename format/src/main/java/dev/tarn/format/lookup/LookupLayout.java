package dev.tarn.format.lookup;

import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.schema.TableSchema.TableKind;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;

/**
 * How a {@link TableLookup} lays out the rows it keeps, fixed by the table's schema and the join:
 * the {@link Mode}, the type of the rows it reads (the store's columns, then the filter's other
 * columns) and stores (the projection, then the index-key columns the projection lacks, then an
 * append table's row id), and where the index key (join columns, then the primary-key columns that
 * are not join columns, or the row id) sits in a stored row.
 */
final class LookupLayout {

    /** Name of the row-id column a lookup of an append table adds to its stored rows. */
    static final String ROW_ID = "_LOOKUP_ROW_ID";

    /** How join keys find rows, chosen once from the table and the join columns. */
    enum Mode {
        /** A primary-key table joined on its whole key: one row per key. */
        KEY(false),
        /**
         * A primary-key table joined on part of its key: rows indexed by join, then rest of key.
         */
        PREFIX(false),
        /**
         * A primary-key table joined on columns outside its key: rows indexed by join columns, then
         * key; an update may move a key's row, so each bucket also maps key to join values.
         */
        SECONDARY(true),
        /** An append table: rows indexed by join columns, then a row id of the lookup's own. */
        APPEND(false);

        final boolean mapsKeys;

        Mode(boolean mapsKeys) {
            this.mapsKeys = mapsKeys;
        }
    }

    final Mode mode;
    final RowType storeType;
    final RowType readType;

    /** Index-key positions in a stored row. */
    final int[] indexKey;

    /** How many leading index-key fields the join columns are. */
    final int joinFields;

    /** How many leading stored fields the projection is. */
    final int projected;

    /** Table field index -> position in a read row (-1 if not read). */
    final int[] readPosition;

    /** For {@link Mode#SECONDARY}: positions in a stored row of the key row (key, then join). */
    @Nullable final int[] keyRowFields;

    /** How many primary-key columns the table has (0 for an append table). */
    final int primaryKeyFields;

    LookupLayout(String table, TableSchema schema, LookupSpec spec) {
        List<String> names = schema.fieldNames();
        for (String key : spec.joinKeys()) {
            if (!names.contains(key)) {
                throw new IllegalArgumentException(
                        String.format(
                                "Cannot look up table %s by column '%s': it has no such column"
                                        + " (columns: %s)",
                                table, key, names));
            }
        }
        for (int f : spec.projection()) {
            if (f < 0 || f >= names.size()) {
                throw new IllegalArgumentException(
                        String.format(
                                "Cannot project field %d of table %s: it has fields 0 to %d",
                                f, table, names.size() - 1));
            }
        }
        List<String> pk = schema.primaryKeys();
        primaryKeyFields = pk.size();
        if (schema.kind() == TableKind.APPEND) {
            mode = Mode.APPEND;
        } else if (spec.joinKeys().size() == pk.size() && pk.containsAll(spec.joinKeys())) {
            mode = Mode.KEY;
        } else if (pk.containsAll(spec.joinKeys())) {
            mode = Mode.PREFIX;
        } else {
            mode = Mode.SECONDARY;
        }
        List<Integer> stored = new ArrayList<>();
        for (int f : spec.projection()) {
            stored.add(f);
        }
        projected = stored.size();
        Set<String> indexColumns = new LinkedHashSet<>(spec.joinKeys());
        if (mode != Mode.APPEND) {
            indexColumns.addAll(pk);
        }
        List<Integer> index = new ArrayList<>();
        for (String column : indexColumns) {
            int f = schema.fieldIndex(column);
            if (!stored.contains(f)) {
                stored.add(f);
            }
            index.add(stored.indexOf(f));
        }
        joinFields = spec.joinKeys().size();
        List<Integer> read = new ArrayList<>(stored);
        RowType tableType = schema.rowType();
        List<RowType.RowField> storeFields = new ArrayList<>();
        stored.forEach(f -> storeFields.add(tableType.getFields().get(f)));
        if (mode == Mode.APPEND) {
            index.add(storeFields.size());
            storeFields.add(new RowType.RowField(ROW_ID, new BigIntType(false)));
        }
        storeType = new RowType(false, storeFields);
        indexKey = index.stream().mapToInt(Integer::intValue).toArray();
        filterFields(spec.filter(), read);
        List<RowType.RowField> readFields = new ArrayList<>();
        read.forEach(f -> readFields.add(tableType.getFields().get(f)));
        readType = new RowType(false, readFields);
        readPosition = new int[names.size()];
        java.util.Arrays.fill(readPosition, -1);
        for (int i = read.size() - 1; i >= 0; i--) {
            readPosition[read.get(i)] = i;
        }
        if (mode.mapsKeys) {
            List<Integer> keyRow = new ArrayList<>();
            for (String column : pk) {
                keyRow.add(stored.indexOf(schema.fieldIndex(column)));
            }
            for (String column : spec.joinKeys()) {
                int pos = stored.indexOf(schema.fieldIndex(column));
                if (!keyRow.contains(pos)) {
                    keyRow.add(pos);
                }
            }
            keyRowFields = keyRow.stream().mapToInt(Integer::intValue).toArray();
        } else {
            keyRowFields = null;
        }
    }

    private static void filterFields(@Nullable Predicate filter, List<Integer> read) {
        if (filter instanceof Predicate.Leaf leaf) {
            if (!read.contains(leaf.field())) {
                read.add(leaf.field());
            }
        } else if (filter instanceof Predicate.And and) {
            and.children().forEach(c -> filterFields(c, read));
        } else if (filter instanceof Predicate.Or or) {
            or.children().forEach(c -> filterFields(c, read));
        }
    }

    /** The number of stored fields read from the table (all but an append table's row id). */
    int readStoredFields() {
        return mode == Mode.APPEND ? storeType.getFieldCount() - 1 : storeType.getFieldCount();
    }

    /** A row of the store's type holding {@code joinKey}'s fields as its join columns. */
    GenericRowData probe(RowData joinKey, RowData.FieldGetter[] keyGetters) {
        GenericRowData probe = new GenericRowData(storeType.getFieldCount());
        for (int i = 0; i < joinFields; i++) {
            probe.setField(indexKey[i], keyGetters[i].getFieldOrNull(joinKey));
        }
        return probe;
    }

    /** The type of the rows a {@link Mode#SECONDARY} bucket maps keys with: key, then join. */
    RowType keyRowType() {
        List<RowType.RowField> fields = new ArrayList<>();
        for (int pos : keyRowFields) {
            fields.add(storeType.getFields().get(pos));
        }
        return new RowType(false, fields);
    }
}
