package dev.tarn.format.lsm.run;

import dev.tarn.format.io.FileIO;
import dev.tarn.format.lsm.KeyValue;
import dev.tarn.format.lsm.KeyValueSchema;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DataFile.ColumnStats;
import dev.tarn.format.manifest.DataFile.KeyRange;
import dev.tarn.format.manifest.DataFile.SequenceRange;
import dev.tarn.format.manifest.DataFiles;
import dev.tarn.format.manifest.FileContent;
import dev.tarn.format.parquet.ParquetDataWriter;
import dev.tarn.format.parquet.ParquetDataWriter.DataFileStats;
import dev.tarn.format.schema.TableConfig;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;

/**
 * Writes changes, in key order with one change per key, into data files of one level of one bucket,
 * rolling to a new file past the target size, so the files form one sorted run. Each file records
 * its key range, sequence range and column statistics.
 *
 * <p>Not thread-safe; files of an aborted writer are deleted.
 */
public final class KeyValueFileWriter {

    /** Size checks are cheap but not free; rows between two checks. */
    private static final int ROWS_PER_SIZE_CHECK = 1024;

    /**
     * Where and how files are written; shared by all writers of a bucket.
     *
     * @param changelogCompression the codec of changelog and before-image files ({@code
     *     changelog-file.compression})
     */
    public record Target(
            FileIO io,
            Path dir,
            KeyValueSchema schema,
            ParquetDataWriter.Options options,
            TableConfig.FileCompression changelogCompression,
            long targetFileSize,
            long schemaId) {

        /**
         * As this, for changelog files: their own codec, and PLAIN pages only. A dictionary pays
         * for a column only across many rows of few values; a changelog file is read once, in full,
         * and the attempt (a hash insert per value of its first page) cost two thirds of writing
         * one.
         */
        public Target forChangelog() {
            ParquetDataWriter.Options o = options;
            return new Target(
                    io,
                    dir,
                    schema,
                    new ParquetDataWriter.Options(
                            changelogCompression,
                            o.zstdLevel(),
                            o.rowGroupSize(),
                            o.pageSize(),
                            false),
                    changelogCompression,
                    targetFileSize,
                    schemaId);
        }
    }

    private final Target target;
    private final int level;
    private final FileContent content;
    private final boolean changelog;
    private final KeyValueRow fileRow;
    private final List<DataFile> finished = new ArrayList<>();

    private ParquetDataWriter current;
    private String currentName;
    private byte[] minKey;
    private final KeyValueSchema.LastKey firstKey;
    private final KeyValueSchema.LastKey lastKey;
    private long minSequence;
    private long maxSequence;
    private long rowsSinceCheck;

    /** Rows written to the open file; where the last written row lies ({@link #write}). */
    private long rowsInFile;

    private String lastFile;
    private long lastPosition = -1;

    /** Files of {@link #finished} from the first one of the open flush ({@link #endFlush}). */
    private int flushStart;

    public KeyValueFileWriter(Target target, int level) {
        this(target, level, FileContent.DATA);
    }

    /**
     * @param content {@link FileContent#DATA}: a sorted run, each file with its key range; or a
     *     changelog content, whose changes come in the order given to {@link #writeChange} and
     *     whose files have no key range. {@link FileContent#BEFORE_IMAGES} are the previous rows of
     *     the keys one flush changed, in its key order, each file with the flush's sequence range
     *     ({@link #endFlush}).
     */
    public KeyValueFileWriter(Target target, int level, FileContent content) {
        this.content = content;
        this.changelog = content.isChangelog();
        this.target = target;
        this.level = level;
        this.fileRow = new KeyValueRow(target.schema().tableType().getFieldCount());
        // Own encoders: writers of several buckets and compactions run on different threads.
        this.firstKey = target.schema().newLastKey();
        this.lastKey = target.schema().newLastKey();
    }

    /** Adds one change of the changelog: in the order given, any key. */
    public void writeChange(long sequence, RowKind kind, RowData row) throws IOException {
        if (current == null) {
            open();
        }
        current.write(fileRow.replace(sequence, kind, row));
        minSequence = Math.min(minSequence, sequence);
        maxSequence = Math.max(maxSequence, sequence);
        checkSize();
    }

    private void open() throws IOException {
        currentName = content.newFileName();
        current =
                ParquetDataWriter.create(
                        target.io(),
                        new Path(target.dir(), currentName),
                        target.schema().fileType(),
                        target.options());
        minSequence = Long.MAX_VALUE;
        maxSequence = Long.MIN_VALUE;
    }

    private void checkSize() throws IOException {
        if (++rowsSinceCheck >= ROWS_PER_SIZE_CHECK) {
            rowsSinceCheck = 0;
            if (current.estimatedLength() >= target.targetFileSize()) {
                closeCurrent();
            }
        }
    }

    /**
     * Adds the next change of the run (keys ascending, one change per key). {@link #lastFile} and
     * {@link #lastPosition} then say where it lies.
     */
    public void write(KeyValue kv) throws IOException {
        if (current == null) {
            rowsInFile = 0;
            currentName = content.newFileName();
            current =
                    ParquetDataWriter.create(
                            target.io(),
                            new Path(target.dir(), currentName),
                            target.schema().fileType(),
                            target.options());
            firstKey.set(kv.row());
            minKey = firstKey.bytes();
            minSequence = Long.MAX_VALUE;
            maxSequence = Long.MIN_VALUE;
        }
        current.write(fileRow.replace(kv));
        lastFile = currentName;
        lastPosition = rowsInFile++;
        // The row may be gone by the time the file closes: keep its key's bytes.
        lastKey.set(kv.row());
        minSequence = Math.min(minSequence, kv.sequence());
        maxSequence = Math.max(maxSequence, kv.sequence());
        if (++rowsSinceCheck >= ROWS_PER_SIZE_CHECK) {
            rowsSinceCheck = 0;
            if (current.estimatedLength() >= target.targetFileSize()) {
                closeCurrent();
            }
        }
    }

    /** The file the change last {@linkplain #write written} lies in. */
    public String lastFile() {
        return lastFile;
    }

    /** The position (row index) of the change last {@linkplain #write written} in its file. */
    public long lastPosition() {
        return lastPosition;
    }

    /**
     * Ends the before-images of one flush, whose changes have the sequence numbers {@code [min,
     * max]}: closes its files, writing an empty one if it had no row (the file marks the flush),
     * and gives each that range, which the flush's data files lie within.
     */
    public void endFlush(long min, long max) throws IOException {
        if (current == null && finished.size() == flushStart) {
            open();
        }
        if (current != null) {
            minSequence = min;
            maxSequence = max;
            closeCurrent();
        }
        SequenceRange range = new SequenceRange(min, max);
        for (int i = flushStart; i < finished.size(); i++) {
            finished.set(i, finished.get(i).withSequence(range));
        }
        flushStart = finished.size();
    }

    /** Closes the open file and returns every file written, in key order. */
    public List<DataFile> finish() throws IOException {
        if (current != null) {
            closeCurrent();
        }
        List<DataFile> files = List.copyOf(finished);
        finished.clear();
        flushStart = 0;
        return files;
    }

    /** Deletes every file this writer wrote and has not returned. */
    public void abort() {
        if (current != null) {
            current.abort();
            current = null;
        }
        DataFiles.deleteUnreferenced(target.io(), target.dir(), finished);
        finished.clear();
        flushStart = 0;
    }

    private void closeCurrent() throws IOException {
        ParquetDataWriter writer = current;
        current = null;
        try {
            byte[] maxKey = changelog ? null : lastKey.bytes();
            DataFileStats stats = writer.finish();
            finished.add(
                    new DataFile(
                            currentName,
                            content,
                            stats.fileSize(),
                            stats.rowCount(),
                            level,
                            target.schemaId(),
                            new SequenceRange(minSequence, maxSequence),
                            tableColumns(stats.stats()),
                            changelog ? null : new KeyRange(minKey, maxKey)));
        } catch (IOException | RuntimeException e) {
            writer.abort();
            throw e;
        }
    }

    /** Statistics of the table's columns only: the manifest holds no system columns. */
    private ColumnStats tableColumns(ColumnStats all) {
        int n = target.schema().tableType().getFieldCount();
        return new ColumnStats(
                Arrays.copyOf(all.mins(), n),
                Arrays.copyOf(all.maxs(), n),
                Arrays.copyOf(all.nullCounts(), n));
    }
}
