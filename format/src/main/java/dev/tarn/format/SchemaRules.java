package dev.tarn.format;

import dev.tarn.format.lsm.tree.BucketTrees;
import dev.tarn.format.parquet.ParquetDataWriter;
import dev.tarn.format.schema.LsmOptions;
import dev.tarn.format.schema.SchemaChange;
import dev.tarn.format.schema.StreamConfig.ChangelogProducer;
import dev.tarn.format.schema.TableConfig;
import dev.tarn.format.schema.TableOptions;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.schema.TableSchema.TableKind;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/** Rules a schema must meet for a table to be created with it or altered to it. */
final class SchemaRules {

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
     * The schema as it is stored: a primary-key table without 'bucket' gets {@link
     * TableOptions#PRIMARY_KEY_DEFAULT_BUCKETS}, written down so a later default never changes it.
     */
    static TableSchema withDefaults(TableSchema schema) {
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
    static void validate(String action, String table, TableSchema schema) {
        TableConfig config = TableConfig.of(table, schema.options());
        try {
            ParquetDataWriter.checkSupported(schema.rowType());
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
            validatePrimaryKey(action, table, schema, config);
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
            String action, String table, TableSchema schema, TableConfig config) {
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
            BucketTrees.validate(schema, schema.options(), config.lsm().mergeEngine());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "Cannot " + action + " table " + table + ": " + e.getMessage(), e);
        }
    }

    private SchemaRules() {}
}
