package dev.tarn.connector.source;

import org.apache.flink.table.data.RowData;

/**
 * A row on its way from the fetcher thread to the task thread, with its position in its split. One
 * instance per batch, refilled for each row, so handing rows over allocates nothing per row.
 */
final class TarnRecord {

    RowData row;
    int fileIndex;
    long rowsInFile;

    TarnRecord set(RowData row, int fileIndex, long rowsInFile) {
        this.row = row;
        this.fileIndex = fileIndex;
        this.rowsInFile = rowsInFile;
        return this;
    }
}
