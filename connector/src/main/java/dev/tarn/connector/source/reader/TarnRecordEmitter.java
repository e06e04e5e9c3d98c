package dev.tarn.connector.source.reader;

import dev.tarn.connector.source.split.TarnSplitState;
import javax.annotation.Nullable;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.connector.base.source.reader.RecordEmitter;
import org.apache.flink.table.data.RowData;

/**
 * Emits a batch of rows, moving its split's position past each row as it goes, on the task thread:
 * a checkpoint taken after the batch holds the position after its last row. With a declared
 * watermark each row also goes through the reader's generator.
 */
public final class TarnRecordEmitter implements RecordEmitter<RowBatch, RowData, TarnSplitState> {

    @Nullable private final RowWatermarks watermarks;

    public TarnRecordEmitter(@Nullable RowWatermarks watermarks) {
        this.watermarks = watermarks;
    }

    @Override
    public void emitRecord(RowBatch batch, SourceOutput<RowData> output, TarnSplitState state) {
        RowData row;
        while ((row = batch.next()) != null) {
            if (watermarks != null) {
                watermarks.onRow(row);
            }
            output.collect(row);
            state.emitted(batch.fileIndex(), batch.rowsInFile());
        }
    }
}
