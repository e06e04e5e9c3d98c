package dev.tarn.connector.source;

import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.connector.base.source.reader.RecordEmitter;
import org.apache.flink.table.data.RowData;

/** Emits a row and moves its split's position past it, both on the task thread. */
final class TarnRecordEmitter implements RecordEmitter<TarnRecord, RowData, TarnSplitState> {

    @Override
    public void emitRecord(TarnRecord record, SourceOutput<RowData> output, TarnSplitState state) {
        output.collect(record.row);
        state.emitted(record.fileIndex, record.rowsInFile);
    }
}
