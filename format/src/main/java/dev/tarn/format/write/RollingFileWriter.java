package dev.tarn.format.write;

import dev.tarn.format.io.FileIO;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DataFile.SequenceRange;
import dev.tarn.format.manifest.DataFiles;
import dev.tarn.format.manifest.FileContent;
import dev.tarn.format.parquet.ParquetDataWriter;
import dev.tarn.format.parquet.ParquetDataWriter.DataFileStats;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Writes rows of one bucket into data files, starting a new file once the current one reaches the
 * target size. Always: every file in {@code finished} is complete and closed.
 */
final class RollingFileWriter {

    /** Size checks are cheap but not free; rows between two checks. */
    private static final int ROWS_PER_SIZE_CHECK = 1024;

    private final FileIO io;
    private final Path dir;
    private final RowType rowType;
    private final ParquetDataWriter.Options options;
    private final long targetFileSize;
    private final long schemaId;
    private final List<DataFile> finished = new ArrayList<>();

    private ParquetDataWriter current;
    private String currentName;
    private long rowsSinceCheck;

    RollingFileWriter(
            FileIO io,
            Path dir,
            RowType rowType,
            ParquetDataWriter.Options options,
            long targetFileSize,
            long schemaId) {
        this.io = io;
        this.dir = dir;
        this.rowType = rowType;
        this.options = options;
        this.targetFileSize = targetFileSize;
        this.schemaId = schemaId;
    }

    void write(RowData row) throws IOException {
        if (current == null) {
            currentName = FileContent.DATA.newFileName();
            current = ParquetDataWriter.create(io, new Path(dir, currentName), rowType, options);
        }
        current.write(row);
        if (++rowsSinceCheck >= ROWS_PER_SIZE_CHECK) {
            rowsSinceCheck = 0;
            if (current.estimatedLength() >= targetFileSize) {
                closeCurrent();
            }
        }
    }

    private void closeCurrent() throws IOException {
        ParquetDataWriter writer = current;
        current = null;
        try {
            DataFileStats stats = writer.finish();
            finished.add(
                    new DataFile(
                            currentName,
                            FileContent.DATA,
                            stats.fileSize(),
                            stats.rowCount(),
                            0,
                            schemaId,
                            new SequenceRange(0, Math.max(0, stats.rowCount() - 1)),
                            stats.stats(),
                            null));
        } catch (IOException | RuntimeException e) {
            writer.abort();
            throw e;
        }
    }

    /** Closes the open file and returns every file written; the writer can be reused. */
    List<DataFile> finish() throws IOException {
        if (current != null) {
            closeCurrent();
        }
        List<DataFile> files = List.copyOf(finished);
        finished.clear();
        return files;
    }

    void abort() {
        if (current != null) {
            current.abort();
            current = null;
        }
        DataFiles.deleteUnreferenced(io, dir, finished);
        finished.clear();
    }
}
