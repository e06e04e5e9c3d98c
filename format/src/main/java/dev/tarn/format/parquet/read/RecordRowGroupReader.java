package dev.tarn.format.parquet.read;

import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.RecordMaterializer;
import org.apache.parquet.schema.MessageType;

/**
 * Reads rows of any schema, nested or not, record by record through Parquet's record assembly into
 * one reused {@link org.apache.flink.table.data.GenericRowData}.
 */
public final class RecordRowGroupReader implements RowGroupReader {

    private final MessageColumnIO columnIO;
    private final RowConverter root;
    private final RecordMaterializer<RowData> materializer;
    private RecordReader<RowData> records;
    private long remaining;

    public RecordRowGroupReader(MessageType requested, MessageType fileSchema, RowType readType) {
        this.columnIO = new ColumnIOFactory(false).getColumnIO(requested, fileSchema, true);
        this.root = new RowConverter(readType, null);
        this.materializer =
                new RecordMaterializer<>() {
                    @Override
                    public RowData getCurrentRecord() {
                        return root.row();
                    }

                    @Override
                    public GroupConverter getRootConverter() {
                        return root;
                    }
                };
    }

    @Override
    public void startRowGroup(PageReadStore pages) {
        records = columnIO.getRecordReader(pages, materializer);
        remaining = pages.getRowCount();
    }

    @Override
    @Nullable
    public RowData next() {
        if (remaining == 0) {
            return null;
        }
        remaining--;
        return records.read();
    }
}
