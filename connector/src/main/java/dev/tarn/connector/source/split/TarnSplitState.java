package dev.tarn.connector.source.split;

/** A split being read, with the position of the last row emitted; updated on the task thread. */
public final class TarnSplitState {

    private final TarnSplit split;
    private int fileIndex;
    private long rowsInFile;

    public TarnSplitState(TarnSplit split) {
        this.split = split;
        this.fileIndex = split.fileIndex();
        this.rowsInFile = split.rowsInFile();
    }

    public void emitted(int file, long rows) {
        this.fileIndex = file;
        this.rowsInFile = rows;
    }

    long snapshotId() {
        return split.split().snapshotId();
    }

    /** The time the split's rows carry ({@link TarnSplit#eventTime}). */
    public long eventTime() {
        return split.eventTime();
    }

    public TarnSplit toSplit() {
        return split.at(fileIndex, rowsInFile);
    }
}
