package dev.tarn.format;

import dev.tarn.format.iceberg.IcebergSchemas;
import dev.tarn.format.lsm.tree.BucketTrees;
import dev.tarn.format.parquet.ParquetDataWriter;
import dev.tarn.format.schema.MergeEngine;
import dev.tarn.format.schema.SchemaRules;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.snapshot.SnapshotReader;
import dev.tarn.format.table.TableContext;
import javax.annotation.Nullable;
import org.apache.flink.table.types.logical.RowType;

/**
 * The schema rules of the data files and the LSM trees, and what a table holds, handed to {@link
 * SchemaRules} from here: those packages depend on {@code schema}, so it cannot call them itself.
 *
 * @param table the table an ALTER TABLE changes; null for one being created, which holds nothing
 */
record StorageRules(@Nullable TableContext table) implements SchemaRules.Storage {

    /** The rules for a table being created. */
    static final StorageRules NEW_TABLE = new StorageRules(null);

    @Override
    public void checkColumns(RowType rowType) {
        ParquetDataWriter.checkSupported(rowType);
    }

    @Override
    public void checkIceberg(TableSchema schema) {
        IcebergSchemas.check(schema);
    }

    @Override
    public void checkMerge(TableSchema schema, MergeEngine engine) {
        BucketTrees.validate(schema, schema.options(), engine);
    }

    @Override
    public long deletionVectors() {
        if (table == null) {
            return 0;
        }
        SnapshotReader reader = table.snapshotReader();
        return reader.latest().map(s -> (long) reader.indexEntries(s).size()).orElse(0L);
    }
}
