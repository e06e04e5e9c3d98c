package dev.tarn.format.parquet.write;

import dev.tarn.format.parquet.schema.ParquetSchemas;
import java.util.Map;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

/**
 * Parquet's {@link WriteSupport} for Flink {@link RowData} of one {@link RowType}. The file's
 * key-value metadata records the Flink row type under {@link #ROW_TYPE_KEY}, for tools and
 * debugging; readers take the type from the table schema, not from here.
 */
final class RowDataWriteSupport extends WriteSupport<RowData> {

    static final String ROW_TYPE_KEY = "tarn.row-type";

    private final RowType rowType;
    private final MessageType schema;
    private RecordConsumer consumer;
    private RowFieldsWriter fields;

    RowDataWriteSupport(RowType rowType, int[] fieldIds) {
        this.rowType = rowType;
        this.schema = ParquetSchemas.toMessageType(rowType, fieldIds);
    }

    @Override
    public WriteContext init(ParquetConfiguration configuration) {
        return new WriteContext(schema, Map.of(ROW_TYPE_KEY, rowType.asSerializableString()));
    }

    /** Parquet only calls this with a Hadoop configuration, which Tarn never passes. */
    @Override
    public WriteContext init(Configuration configuration) {
        return new WriteContext(schema, Map.of(ROW_TYPE_KEY, rowType.asSerializableString()));
    }

    @Override
    public void prepareForWrite(RecordConsumer recordConsumer) {
        this.consumer = recordConsumer;
        this.fields = new RowFieldsWriter(rowType, recordConsumer);
    }

    @Override
    public void write(RowData row) {
        consumer.startMessage();
        fields.writeFields(row);
        consumer.endMessage();
    }
}
