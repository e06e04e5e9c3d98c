package dev.tarn.connector;

import dev.tarn.format.Table;
import java.util.List;
import org.apache.flink.table.data.RowData;

/**
 * The rows of the metadata system tables a catalog offers over its tables ({@code t$snapshots},
 * {@code t$files}, ...), computed from the table's metadata when a query is planned. A catalog
 * hands one to {@link TarnDynamicTableFactory}; the factory turns the rows into a bounded source.
 */
public interface MetadataRows {

    /**
     * The rows of system table {@code systemTable} of {@code table}, in the types the catalog
     * declared for it.
     *
     * @throws IllegalArgumentException naming the table if it is not a metadata table of this
     *     catalog
     */
    List<RowData> rows(String systemTable, Table table);
}
