package dev.tarn.catalog.system;

import static dev.tarn.catalog.system.SystemTableValues.field;

import dev.tarn.catalog.partition.PartitionNames;
import dev.tarn.format.Table;
import dev.tarn.format.TableMetadata.FileVector;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code t$deletion_vectors}: one row per live data file of the snapshot a query reads that has a
 * deletion vector, in its index manifest's order: the data file (as {@code $files} names it), the
 * index file the vector lies in, the vector's offset and length there, and the rows it deletes.
 * Apache Paimon's {@code $table_indexes} lists index files instead, one row each with its vectors
 * as an array (and Paimon's other index kinds); Tarn's index files hold deletion vectors only, so a
 * row per vector joins with {@code $files} on the data file.
 */
final class DeletionVectorsTable {

    static final RowType TYPE =
            SystemTableValues.rowType(
                    field("partition", DataTypes.STRING()),
                    field("bucket", DataTypes.INT().notNull()),
                    field("data_file", DataTypes.STRING().notNull()),
                    field("index_file", DataTypes.STRING().notNull()),
                    field("offset", DataTypes.BIGINT().notNull()),
                    field("length", DataTypes.BIGINT().notNull()),
                    field("deleted_record_count", DataTypes.BIGINT().notNull()));

    static List<RowData> rows(Table table) {
        List<String> keys = table.schema().partitionKeys();
        List<RowData> rows = new ArrayList<>();
        for (FileVector v :
                SystemTableValues.deletionVectors(table, SystemTableValues.snapshot(table))) {
            rows.add(
                    GenericRowData.of(
                            StringData.fromString(PartitionNames.text(keys, v.partition())),
                            v.bucket(),
                            StringData.fromString(v.dataFile().toString()),
                            StringData.fromString(v.indexFile().toString()),
                            v.vector().offset(),
                            v.vector().length(),
                            v.vector().cardinality()));
        }
        return rows;
    }

    private DeletionVectorsTable() {}
}
