package dev.tarn.format.schema;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.annotation.Nullable;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * One version of a table's schema: its columns with ids, partition and primary keys, options and
 * the event-time watermark its reads declare. Schemas are immutable and numbered from 0; every
 * change (options included) writes a new one. Always: partition and primary keys and the
 * watermark's column name existing columns, keys without repeats, and {@code highestFieldId} at
 * least every field's id: the highest id the table ever gave a field, so a new column's id is never
 * one a dropped column had.
 */
public record TableSchema(
        long id,
        List<DataField> fields,
        List<String> partitionKeys,
        List<String> primaryKeys,
        Map<String, String> options,
        @Nullable String comment,
        @Nullable WatermarkSpec watermark,
        List<ComputedColumn> computedColumns,
        int highestFieldId)
        implements Serializable {

    /**
     * A computed column, {@code name AS expression}: declared for the engine, which evaluates it on
     * read; the format stores it and never evaluates it, no file holds it, and it may change at any
     * time.
     *
     * @param expression a Flink SQL expression over the columns, e.g. {@code `price` * `qty`}
     * @param position where it stands among all columns, physical and computed, as declared; past
     *     the end (after columns were dropped) it goes last
     */
    public record ComputedColumn(
            String name, String expression, int position, @Nullable String comment)
            implements Serializable {

        public ComputedColumn {
            if (name == null || name.isEmpty() || expression == null || expression.isBlank()) {
                throw new IllegalArgumentException(
                        "A computed column needs a name and an expression, got '"
                                + name
                                + "' AS '"
                                + expression
                                + "'");
            }
            if (position < 0) {
                throw new IllegalArgumentException(
                        "Computed column " + name + " has a negative position " + position);
            }
        }
    }

    /**
     * A {@code WATERMARK FOR rowtime AS expression} declaration. The format stores it for the
     * engine and never evaluates it: it shapes no stored data, so it may change at any time.
     *
     * @param rowtime the top-level column that holds each row's event time
     * @param expression the watermark as a Flink SQL expression over the columns, e.g. {@code `ts`
     *     - INTERVAL '5' SECOND} or {@code SOURCE_WATERMARK()}
     */
    public record WatermarkSpec(String rowtime, String expression) implements Serializable {

        public WatermarkSpec {
            if (rowtime == null
                    || rowtime.isEmpty()
                    || expression == null
                    || expression.isBlank()) {
                throw new IllegalArgumentException(
                        "A watermark needs a column and an expression, got column '"
                                + rowtime
                                + "' and expression '"
                                + expression
                                + "'");
            }
        }
    }

    /** One top-level column: a stable id that survives renames, its name, type and comment. */
    public record DataField(int id, String name, LogicalType type, @Nullable String description)
            implements Serializable {

        public DataField {
            if (id < 0) {
                throw new IllegalArgumentException("Field id of " + name + " must be >= 0: " + id);
            }
            if (name == null || name.isEmpty()) {
                throw new IllegalArgumentException("Field " + id + " has no name");
            }
        }
    }

    public TableSchema {
        fields = List.copyOf(fields);
        partitionKeys = List.copyOf(partitionKeys);
        primaryKeys = List.copyOf(primaryKeys);
        options = java.util.Collections.unmodifiableMap(new TreeMap<>(options));
        computedColumns = List.copyOf(computedColumns);
        Set<String> names = new HashSet<>();
        Set<Integer> ids = new HashSet<>();
        for (DataField f : fields) {
            if (!names.add(f.name())) {
                throw new IllegalArgumentException("Column " + f.name() + " appears twice");
            }
            if (!ids.add(f.id())) {
                throw new IllegalArgumentException("Field id " + f.id() + " appears twice");
            }
        }
        for (DataField f : fields) {
            if (f.id() > highestFieldId) {
                throw new IllegalArgumentException(
                        "Field id "
                                + f.id()
                                + " of column "
                                + f.name()
                                + " is above the schema's highest field id "
                                + highestFieldId);
            }
        }
        List<String> columns = fields.stream().map(DataField::name).toList();
        checkKeys("Partition key", partitionKeys, columns);
        checkKeys("Primary key", primaryKeys, columns);
        Set<String> all = new HashSet<>(names);
        Set<Integer> positions = new HashSet<>();
        for (ComputedColumn c : computedColumns) {
            if (!all.add(c.name())) {
                throw new IllegalArgumentException("Column " + c.name() + " appears twice");
            }
            if (!positions.add(c.position())) {
                throw new IllegalArgumentException(
                        "Computed column " + c.name() + " shares position " + c.position());
            }
        }
        if (watermark != null && !all.contains(watermark.rowtime())) {
            throw new IllegalArgumentException(
                    "Watermark column "
                            + watermark.rowtime()
                            + " is not a column; columns are "
                            + columns);
        }
    }

    /** A schema whose highest field id is that of its fields (-1 without fields). */
    public TableSchema(
            long id,
            List<DataField> fields,
            List<String> partitionKeys,
            List<String> primaryKeys,
            Map<String, String> options,
            @Nullable String comment,
            @Nullable WatermarkSpec watermark) {
        this(
                id,
                fields,
                partitionKeys,
                primaryKeys,
                options,
                comment,
                watermark,
                List.of(),
                fields.stream().mapToInt(DataField::id).max().orElse(-1));
    }

    /** A schema without a watermark declaration. */
    public TableSchema(
            long id,
            List<DataField> fields,
            List<String> partitionKeys,
            List<String> primaryKeys,
            Map<String, String> options,
            @Nullable String comment) {
        this(id, fields, partitionKeys, primaryKeys, options, comment, null);
    }

    /** Refuses a key that is no column, naming the columns in table order, or one given twice. */
    private static void checkKeys(String what, List<String> keys, List<String> columns) {
        Set<String> seen = new HashSet<>();
        for (String key : keys) {
            if (!columns.contains(key)) {
                throw new IllegalArgumentException(
                        what + " " + key + " is not a column; columns are " + columns);
            }
            if (!seen.add(key)) {
                throw new IllegalArgumentException(what + " " + key + " appears twice");
            }
        }
    }

    /** A schema 0 with field ids assigned in column order, without a watermark. */
    public static TableSchema create(
            RowType rowType,
            List<String> partitionKeys,
            List<String> primaryKeys,
            Map<String, String> options,
            @Nullable String comment) {
        return create(rowType, partitionKeys, primaryKeys, options, comment, null);
    }

    /** A schema 0 with field ids assigned in column order. */
    public static TableSchema create(
            RowType rowType,
            List<String> partitionKeys,
            List<String> primaryKeys,
            Map<String, String> options,
            @Nullable String comment,
            @Nullable WatermarkSpec watermark) {
        return create(rowType, partitionKeys, primaryKeys, options, comment, watermark, List.of());
    }

    /** A schema 0 with field ids assigned in column order, declaring computed columns. */
    public static TableSchema create(
            RowType rowType,
            List<String> partitionKeys,
            List<String> primaryKeys,
            Map<String, String> options,
            @Nullable String comment,
            @Nullable WatermarkSpec watermark,
            List<ComputedColumn> computed) {
        List<DataField> fields = new ArrayList<>();
        List<RowType.RowField> rowFields = rowType.getFields();
        for (int i = 0; i < rowFields.size(); i++) {
            RowType.RowField f = rowFields.get(i);
            fields.add(new DataField(i, f.getName(), f.getType(), f.getDescription().orElse(null)));
        }
        return new TableSchema(
                0,
                fields,
                partitionKeys,
                primaryKeys,
                options,
                comment,
                watermark,
                computed,
                fields.size() - 1);
    }

    /** The next version of this schema with other options. */
    public TableSchema withOptions(Map<String, String> newOptions) {
        return new TableSchema(
                id + 1,
                fields,
                partitionKeys,
                primaryKeys,
                newOptions,
                comment,
                watermark,
                computedColumns,
                highestFieldId);
    }

    /**
     * Whether files written under {@code other} read as files of this schema without conversion:
     * the same field ids, names and types in the same order (options, comments and the watermark
     * may differ).
     */
    public boolean sameColumns(TableSchema other) {
        if (other == this) {
            return true;
        }
        if (other.fields.size() != fields.size()) {
            return false;
        }
        for (int i = 0; i < fields.size(); i++) {
            DataField a = fields.get(i);
            DataField b = other.fields.get(i);
            if (a.id() != b.id() || !a.name().equals(b.name()) || !a.type().equals(b.type())) {
                return false;
            }
        }
        return true;
    }

    public TableKind kind() {
        return TableKind.of(this);
    }

    public RowType rowType() {
        List<RowType.RowField> rowFields = new ArrayList<>();
        for (DataField f : fields) {
            rowFields.add(new RowType.RowField(f.name(), f.type(), f.description()));
        }
        return new RowType(false, rowFields);
    }

    public List<String> fieldNames() {
        return fields.stream().map(DataField::name).toList();
    }

    public int fieldIndex(String name) {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException("Column " + name + " does not exist in " + fieldNames());
    }

    public int[] fieldIndexes(List<String> names) {
        return names.stream().mapToInt(this::fieldIndex).toArray();
    }

    public LogicalType fieldType(String name) {
        return fields.get(fieldIndex(name)).type();
    }

    /**
     * The value column {@code name} reads as in files written before it was added: its default
     * (option {@code fields.<name>.default-value}) as Flink internal data, or null without one.
     */
    @Nullable
    public Object defaultValue(String name) {
        return ColumnDefaults.value(this, name);
    }

    /**
     * Columns rows are hashed by: the bucket-key option, else the primary key without partition
     * keys, else every column that is not a partition key (a partition key is constant within its
     * partition, so hashing by it adds nothing).
     */
    public List<String> bucketKeys() {
        String option = options.get(TableOptions.BUCKET_KEY.key());
        if (option != null && !option.isBlank()) {
            List<String> keys = List.of(option.trim().split("\\s*,\\s*"));
            checkKeys("Bucket key", keys, fieldNames());
            return keys;
        }
        if (!primaryKeys.isEmpty()) {
            List<String> keys = new ArrayList<>(primaryKeys);
            keys.removeAll(partitionKeys);
            return keys.isEmpty() ? primaryKeys : keys;
        }
        List<String> keys = new ArrayList<>(fieldNames());
        keys.removeAll(partitionKeys);
        return keys;
    }

    /**
     * The two kinds of table, which write, read and commit differently. Chosen once from the
     * schema; each seam picks its implementation for the kind instead of testing for a primary key.
     */
    public enum TableKind {
        /** No primary key: rows are only inserted, and every file's rows are all live. */
        APPEND,
        /**
         * A primary key: each bucket is an LSM tree of changes, merged on read by the table's merge
         * engine into one row per key.
         */
        PRIMARY_KEY;

        static TableKind of(TableSchema schema) {
            return schema.primaryKeys().isEmpty() ? APPEND : PRIMARY_KEY;
        }

        /** Whether the table takes updates and deletes, not only inserts. */
        public boolean takesChanges() {
            return this == PRIMARY_KEY;
        }
    }
}
