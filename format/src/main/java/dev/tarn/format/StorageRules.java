package dev.tarn.format;

import dev.tarn.format.lsm.tree.BucketTrees;
import dev.tarn.format.parquet.ParquetDataWriter;
import dev.tarn.format.schema.MergeEngine;
import dev.tarn.format.schema.SchemaRules;
import dev.tarn.format.schema.TableSchema;
import org.apache.flink.table.types.logical.RowType;

/**
 * The schema rules of the data files and the LSM trees, handed to {@link SchemaRules} from here:
 * those packages depend on {@code schema}, so it cannot call them itself.
 */
enum StorageRules implements SchemaRules.Storage {
    INSTANCE;

    @Override
    public void checkColumns(RowType rowType) {
        ParquetDataWriter.checkSupported(rowType);
    }

    @Override
    public void checkMerge(TableSchema schema, MergeEngine engine) {
        BucketTrees.validate(schema, schema.options(), engine);
    }
}
