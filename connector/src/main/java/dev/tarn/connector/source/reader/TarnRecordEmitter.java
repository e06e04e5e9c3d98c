package dev.tarn.connector.source.reader;

import dev.tarn.connector.source.split.TarnSplitState;
import javax.annotation.Nullable;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.connector.base.source.reader.RecordEmitter;
import org.apache.flink.table.data.RowData;

/**
 * Emits a batch of rows, moving its split's position past each row as it goes, on the task thread:
 * a checkpoint taken after the batch holds the position after its last row. Each row carries its
 * split's event time (the commit time of its snapshot) as its timestamp, which Flink's {@code
 * currentEmitEventTimeLag} measures from, as Apache Paimon's rows carry their file's creation time.
 * With a declared watermark each row also goes through the reader's generator.
 */
public final class TarnRecordEmitter implements RecordEmitter<RowBatch, RowData, TarnSplitState> {

    @Nullable private final RowWatermarks watermarks;

    public TarnRecordEmitter(@Nullable RowWatermarks watermarks) {
        this.watermarks = watermarks;
    }

    @Override
    public void emitRecord(RowBatch batch, SourceOutput<RowData> output, TarnSplitState state) {
        long eventTime = state.eventTime();
        RowData row;
        while ((row = batch.next()) != null) {
            if (watermarks != null) {
                watermarks.onRow(row);
            }
            output.collect(row, eventTime);
            state.emitted(batch.fileIndex(), batch.rowsInFile());
        }
    }
}
