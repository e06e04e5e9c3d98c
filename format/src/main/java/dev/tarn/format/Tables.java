package dev.tarn.format;

import dev.tarn.format.parquet.ParquetDataWriter;
import dev.tarn.format.schema.TableConfig;
import dev.tarn.format.schema.TableSchema;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/** Rules a schema must meet for a table to be created. */
final class Tables {

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

    static void validateForCreate(String table, TableSchema schema, TableConfig config) {
        try {
            ParquetDataWriter.checkSupported(schema.rowType());
        } catch (UnsupportedOperationException e) {
            throw new UnsupportedOperationException(
                    "Cannot create table " + table + ": " + e.getMessage(), e);
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
        if (schema.partitionKeys().size() == schema.fields().size()) {
            throw new IllegalArgumentException(
                    "Table "
                            + table
                            + " must have at least one column that is not a partition key");
        }
        if (!schema.primaryKeys().isEmpty()) {
            throw new UnsupportedOperationException(
                    "Table "
                            + table
                            + " declares a primary key; primary-key tables are not"
                            + " supported yet (remove PRIMARY KEY to create an append table)");
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

    private Tables() {}
}
