package dev.tarn.format.schema;

import dev.tarn.format.schema.StreamConfig.ChangelogProducer;
import dev.tarn.format.schema.TableSchema.TableKind;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;

/**
 * Every rule a table's schema meets, the one place that holds them: the schema a table is created
 * with ({@link #forCreate}), and the next schema {@code ALTER TABLE} builds from a list of {@link
 * SchemaChange}s ({@link #alter}): each change checked as it applies ({@link SchemaEvolution},
 * {@link TypeWidening}, {@link ColumnDefaults}), then the result as a whole, by the rules of CREATE
 * TABLE and by each option's {@link TableOptions.OptionScope} ({@link OptionChanges}).
 */
public final class SchemaRules {

    /**
     * The rules of the layers that store a table's rows, which this package cannot depend on (they
     * depend on it): the data files' column types, the merge engine's needs, and what the table
     * holds now.
     */
    public interface Storage {

        /**
         * @throws UnsupportedOperationException naming the column and its type if data files cannot
         *     hold it
         */
        void checkColumns(RowType rowType);

        /**
         * Checks a primary-key table's columns and options against its merge engine.
         *
         * @throws IllegalArgumentException naming the column or option and its value
         */
        void checkMerge(TableSchema schema, MergeEngine engine);

        /**
         * The number of deletion vectors the table's latest snapshot has: 0 for a table without
         * snapshots (one being created) or without vectors.
         */
        long deletionVectors();

        /**
         * Checks that every column has an Iceberg type, for a table that publishes Iceberg metadata
         * ({@code metadata.iceberg.storage}).
         *
         * @throws UnsupportedOperationException naming the columns and their types
         */
        void checkIceberg(TableSchema schema);
    }

    /** Types a partition column may have: each value must read back from its directory name. */
    private static final Set<LogicalTypeRoot> PARTITION_TYPES =
            Set.of(
                    LogicalTypeRoot.CHAR,
                    LogicalTypeRoot.VARCHAR,
                    LogicalTypeRoot.BOOLEAN,
                    LogicalTypeRoot.TINYINT,
                    LogicalTypeRoot.SMALLINT,
                    LogicalTypeRoot.INTEGER,
                    LogicalTypeRoot.BIGINT,
                    LogicalTypeRoot.DECIMAL,
                    LogicalTypeRoot.DATE);

    /**
     * The schema a new table stores, {@code schema} with its defaults, after checking it.
     *
     * @throws IllegalArgumentException naming the table, the rule and the value
     * @throws UnsupportedOperationException naming a column data files cannot hold
     */
    public static TableSchema forCreate(String table, TableSchema schema, Storage storage) {
        for (String key : schema.options().keySet()) {
            if (TableOptions.queryOnly().stream().anyMatch(o -> o.key().equals(key))) {
                throw new IllegalArgumentException(
                        "Option '"
                                + key
                                + "' of table "
                                + table
                                + " applies to one query; give it"
                                + " as a hint, not in CREATE TABLE");
            }
        }
        TableSchema stored = withDefaults(schema);
        validate("create", table, stored, storage);
        return stored;
    }

    /**
     * The schema a table has after {@code changes}, applied in order to {@code current}, its
     * schema: numbered {@code current.id() + 1}, or empty if the changes change nothing. Once the
     * table has data ({@code latestSnapshot} present), options fixed at creation keep their values.
     *
     * @throws IllegalArgumentException naming the table, the column or option, the reason and the
     *     value, for the first change or rule that fails
     * @throws UnsupportedOperationException naming a column data files cannot hold
     */
    public static Optional<TableSchema> alter(
            String table,
            TableSchema current,
            List<SchemaChange> changes,
            OptionalLong latestSnapshot,
            Storage storage) {
        TableSchema next = new SchemaEvolution(table, current).apply(changes);
        if (next.equals(current.withOptions(current.options()))) {
            return Optional.empty();
        }
        OptionChanges.checkAlter(table, current, next, latestSnapshot);
        validate("alter", table, next, storage);
        checkVectorsKept(table, current, next, latestSnapshot, storage);
        SchemaChange.checkDefaults(table, current, next);
        return Optional.of(next);
    }

    /**
     * Refuses to turn {@code deletion-vectors.enabled} off while the latest snapshot has vectors:
     * the writers wrote whole rows and marked the rows they replace (for partial-update and
     * aggregation the merged row, and deleted the old one), so a read by merging that ignores the
     * vectors would return rows they delete, or fold them in again.
     *
     * @throws IllegalArgumentException naming the table, the snapshot and the vector count
     */
    private static void checkVectorsKept(
            String table,
            TableSchema current,
            TableSchema next,
            OptionalLong latestSnapshot,
            Storage storage) {
        boolean on = TableConfig.of(table, current.options()).lsm().deletionVectors();
        boolean off = !TableConfig.of(table, next.options()).lsm().deletionVectors();
        if (!on || !off || latestSnapshot.isEmpty()) {
            return;
        }
        long vectors = storage.deletionVectors();
        if (vectors > 0) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot alter table %s: option '%s' cannot be turned off while the"
                                    + " table has deletion vectors (its latest snapshot, %d, has"
                                    + " %d): read without them, the rows they delete would be"
                                    + " back. A full compaction (CALL sys.compact) removes them;"
                                    + " turn the option off after it",
                            table,
                            LsmOptions.DELETION_VECTORS_ENABLED.key(),
                            latestSnapshot.getAsLong(),
                            vectors));
        }
    }

    /**
     * The schema as it is stored: a primary-key table without 'bucket' gets {@link
     * TableOptions#PRIMARY_KEY_DEFAULT_BUCKETS}, written down so a later default never changes it.
     */
    private static TableSchema withDefaults(TableSchema schema) {
        if (schema.kind() == TableKind.APPEND
                || schema.options().containsKey(TableOptions.BUCKET.key())) {
            return schema;
        }
        Map<String, String> options = new HashMap<>(schema.options());
        options.put(
                TableOptions.BUCKET.key(),
                String.valueOf(TableOptions.PRIMARY_KEY_DEFAULT_BUCKETS));
        return new TableSchema(
                schema.id(),
                schema.fields(),
                schema.partitionKeys(),
                schema.primaryKeys(),
                options,
                schema.comment(),
                schema.watermark(),
                schema.computedColumns(),
                schema.highestFieldId());
    }

    /**
     * Checks a schema a table is created with or altered to ({@code action}: create or alter).
     *
     * @throws IllegalArgumentException naming the table, the rule and the value
     */
    private static void validate(String action, String table, TableSchema schema, Storage storage) {
        TableConfig config = TableConfig.of(table, schema.options());
        try {
            storage.checkColumns(schema.rowType());
            if (config.iceberg() != IcebergOptions.Storage.DISABLED) {
                storage.checkIceberg(schema);
            }
        } catch (UnsupportedOperationException e) {
            throw new UnsupportedOperationException(
                    "Cannot " + action + " table " + table + ": " + e.getMessage(), e);
        }
        for (String key : schema.partitionKeys()) {
            LogicalType type = schema.fieldType(key);
            if (!PARTITION_TYPES.contains(type.getTypeRoot())) {
                throw new IllegalArgumentException(
                        String.format(
                                "Partition column %s of table %s has unsupported type %s;"
                                        + " supported: %s",
                                key,
                                table,
                                type.asSummaryString(),
                                // Sorted: Set.of iterates in a different order in every JVM.
                                new TreeSet<>(PARTITION_TYPES)));
            }
        }
        SchemaChange.checkDefaults(table, null, schema);
        if (schema.partitionKeys().size() == schema.fields().size()) {
            throw new IllegalArgumentException(
                    "Table "
                            + table
                            + " must have at least one column that is not a partition key");
        }
        if (schema.kind() == TableKind.APPEND) {
            String vectors = schema.options().get(LsmOptions.DELETION_VECTORS_ENABLED.key());
            if (vectors != null) {
                throw new IllegalArgumentException(
                        String.format(
                                "Option '%s' = '%s' of table %s applies to primary-key tables"
                                        + " only: rows of an append table are only ever added"
                                        + " (and dropped by partition or overwrite), never"
                                        + " replaced or deleted one by one, so it has no row to"
                                        + " mark deleted. Declare a PRIMARY KEY, or remove the"
                                        + " option",
                                LsmOptions.DELETION_VECTORS_ENABLED.key(), vectors, table));
            }
            for (String key : schema.options().keySet()) {
                if (LsmOptions.all().stream().anyMatch(o -> o.key().equals(key))
                        || key.startsWith(LsmOptions.FIELDS_PREFIX)
                                && !SchemaChange.isColumnDefault(key)) {
                    throw new IllegalArgumentException(
                            String.format(
                                    "Option '%s' of table %s applies to primary-key tables only;"
                                            + " declare a PRIMARY KEY or remove the option",
                                    key, table));
                }
            }
            if (config.stream().changelogProducer() != ChangelogProducer.NONE) {
                throw new IllegalArgumentException(
                        String.format(
                                "Option 'changelog-producer' = '%s' of table %s applies to"
                                        + " primary-key tables only; an append table's new files"
                                        + " are its changes",
                                config.stream().changelogProducer(), table));
            }
        } else {
            validatePrimaryKey(action, table, schema, config, storage);
        }
        if (config.bucket() == -1 && schema.options().containsKey(TableOptions.BUCKET_KEY.key())) {
            throw new IllegalArgumentException(
                    String.format(
                            "Option 'bucket-key' = '%s' of table %s has no effect with 'bucket' ="
                                    + " -1 (no bucketing): set 'bucket' to a positive number of"
                                    + " buckets, or remove 'bucket-key'",
                            schema.options().get(TableOptions.BUCKET_KEY.key()), table));
        }
        // Resolving the bucket keys also checks that a 'bucket-key' option names columns.
        List<String> bucketKeys = schema.bucketKeys();
        if (config.bucket() > 0) {
            for (String key : bucketKeys) {
                if (schema.partitionKeys().contains(key)) {
                    throw new IllegalArgumentException(
                            "Bucket key "
                                    + key
                                    + " of table "
                                    + table
                                    + " is a partition column;"
                                    + " hashing by it would put each partition in one bucket");
                }
            }
        }
    }

    private static void validatePrimaryKey(
            String action, String table, TableSchema schema, TableConfig config, Storage storage) {
        List<String> primaryKeys = schema.primaryKeys();
        for (String key : schema.partitionKeys()) {
            if (!primaryKeys.contains(key)) {
                throw new IllegalArgumentException(
                        String.format(
                                "Partition column %s of table %s must be part of the primary key"
                                        + " %s: a key's versions must all be in one partition",
                                key, table, primaryKeys));
            }
        }
        for (String key : primaryKeys) {
            if (schema.fieldType(key).isNullable()) {
                throw new IllegalArgumentException(
                        String.format(
                                "Primary-key column %s of table %s must be NOT NULL", key, table));
            }
        }
        if (config.bucket() < 1) {
            throw new IllegalArgumentException(
                    String.format(
                            "Primary-key table %s needs a fixed number of buckets, got 'bucket' ="
                                    + " %d; dynamic bucketing is not supported yet. Set 'bucket'"
                                    + " to a positive number, or leave it out for %d.",
                            table, config.bucket(), TableOptions.PRIMARY_KEY_DEFAULT_BUCKETS));
        }
        for (String key : schema.bucketKeys()) {
            if (!primaryKeys.contains(key)) {
                throw new IllegalArgumentException(
                        String.format(
                                "Bucket key %s of table %s is not a primary-key column %s: all"
                                        + " versions of a key must hash to one bucket",
                                key, table, primaryKeys));
            }
        }
        try {
            storage.checkMerge(schema, config.lsm().mergeEngine());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "Cannot " + action + " table " + table + ": " + e.getMessage(), e);
        }
    }

    private SchemaRules() {}
}
