package dev.tarn.format.parquet;

import dev.tarn.format.io.FileIO;
import dev.tarn.format.manifest.DataFile.ColumnStats;
import dev.tarn.format.parquet.schema.ParquetSchemas;
import dev.tarn.format.parquet.write.FlatRowWriter;
import dev.tarn.format.parquet.write.PageLayout;
import dev.tarn.format.parquet.write.ParquetOutputFile;
import dev.tarn.format.parquet.write.ParquetRowWriter;
import dev.tarn.format.parquet.write.RecordRowWriter;
import dev.tarn.format.schema.TableConfig.FileCompression;
import java.io.Closeable;
import java.io.IOException;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * Writes one Parquet data file of {@link RowData} rows. The file is created when the writer opens
 * (failing if it exists) and is complete only after {@link #finish()}; {@link #abort()} (or {@link
 * #close()} before finishing) deletes it. Statistics come from the footer Parquet writes, so
 * writing a row costs no statistics work beyond Parquet's own. Rows of atomic columns go straight
 * into Parquet's column writers ({@link FlatRowWriter}); rows with a nested column go through
 * Parquet's record API ({@link RecordRowWriter}); both write the same file.
 *
 * <p>Not thread-safe. Rows may be any {@link RowData} implementation and may be reused by the
 * caller once {@link #write} returns.
 */
public final class ParquetDataWriter implements Closeable {

    /**
     * How a {@link ParquetDataWriter} lays out a file.
     *
     * @param compression page compression codec
     * @param zstdLevel requested zstd level; the bundled pure-Java zstd always compresses at its
     *     one built-in level (about zstd's level 3), so this is recorded for a future codec, not
     *     applied
     * @param rowGroupSize target row group size in bytes (a row group is the unit of skipping and
     *     of read parallelism)
     * @param pageSize target page size in bytes
     * @param dictionary whether to dictionary-encode columns while the dictionary stays small
     * @param fieldIds the field ids of the leading top-level columns, written as Parquet field ids
     *     so that readers that match columns by id (Iceberg's) find them; empty for none
     */
    public record Options(
            FileCompression compression,
            int zstdLevel,
            long rowGroupSize,
            int pageSize,
            boolean dictionary,
            int[] fieldIds) {

        /** Options without field ids. */
        public Options(
                FileCompression compression,
                int zstdLevel,
                long rowGroupSize,
                int pageSize,
                boolean dictionary) {
            this(compression, zstdLevel, rowGroupSize, pageSize, dictionary, new int[0]);
        }

        /** These options with {@code ids} as the leading columns' field ids. */
        public Options withFieldIds(int[] ids) {
            return new Options(compression, zstdLevel, rowGroupSize, pageSize, dictionary, ids);
        }

        /**
         * Row groups of 128 MiB, as Parquet and Paimon default to: large scans, few footer entries.
         */
        static final long DEFAULT_ROW_GROUP_SIZE = 128L * 1024 * 1024;

        /** Pages of 1 MiB, Parquet's default: the granularity of decompression. */
        static final int DEFAULT_PAGE_SIZE = 1024 * 1024;

        /** zstd's own default level. */
        static final int DEFAULT_ZSTD_LEVEL = 3;

        public Options {
            if (compression == null) {
                throw new IllegalArgumentException(
                        "Parquet write options need a compression codec");
            }
            if (rowGroupSize <= 0) {
                throw new IllegalArgumentException(
                        "Parquet row group size must be positive, got " + rowGroupSize);
            }
            if (pageSize <= 0) {
                throw new IllegalArgumentException(
                        "Parquet page size must be positive, got " + pageSize);
            }
        }

        /** The Parquet page codec of {@link #compression}. */
        CompressionCodecName codecName() {
            return switch (compression) {
                case ZSTD -> CompressionCodecName.ZSTD;
                case LZ4 -> CompressionCodecName.LZ4_RAW;
                case GZIP -> CompressionCodecName.GZIP;
                case NONE -> CompressionCodecName.UNCOMPRESSED;
            };
        }

        /** These options as the row writers take them. */
        PageLayout layout() {
            return new PageLayout(codecName(), rowGroupSize, pageSize, dictionary, fieldIds);
        }

        /** zstd, 128 MiB row groups, 1 MiB pages, dictionary encoding on. */
        public static Options defaults() {
            return new Options(
                    FileCompression.ZSTD,
                    DEFAULT_ZSTD_LEVEL,
                    DEFAULT_ROW_GROUP_SIZE,
                    DEFAULT_PAGE_SIZE,
                    true);
        }
    }

    /**
     * What a finished data file holds: its row count, its size in bytes and per-column statistics
     * for every top-level column, in the writer's column order.
     */
    public record DataFileStats(long rowCount, long fileSize, ColumnStats stats) {

        public DataFileStats {
            if (rowCount < 0 || fileSize < 0) {
                throw new IllegalArgumentException(
                        "Data file row count and size must not be negative, got "
                                + rowCount
                                + " rows and "
                                + fileSize
                                + " bytes");
            }
            if (stats == null) {
                throw new IllegalArgumentException("Data file statistics must not be null");
            }
        }
    }

    private final FileIO io;
    private final Path path;
    private final RowType rowType;
    private final ParquetOutputFile file;
    private final ParquetRowWriter writer;
    private final WritePath writePath;
    private long rowCount;
    private boolean finished;
    private boolean closed;

    private ParquetDataWriter(
            FileIO io,
            Path path,
            RowType rowType,
            ParquetOutputFile file,
            ParquetRowWriter writer,
            WritePath writePath) {
        this.io = io;
        this.path = path;
        this.rowType = rowType;
        this.file = file;
        this.writer = writer;
        this.writePath = writePath;
    }

    /**
     * Checks that every column of {@code rowType} can be stored in a Parquet data file.
     *
     * @throws UnsupportedOperationException naming the column and its type if one cannot
     */
    public static void checkSupported(RowType rowType) {
        for (RowType.RowField field : rowType.getFields()) {
            try {
                ParquetSchemas.toParquetType(
                        field.getName(),
                        field.getType(),
                        org.apache.parquet.schema.Type.Repetition.OPTIONAL);
            } catch (RuntimeException e) {
                // The message names the column and its type.
                throw new UnsupportedOperationException(e.getMessage(), e);
            }
        }
    }

    /** Creates {@code path} and a writer for it; fails if the file exists. */
    public static ParquetDataWriter create(FileIO io, Path path, RowType rowType, Options options)
            throws IOException {
        return create(io, path, rowType, options, WriterVersion.PARQUET_1_0);
    }

    /**
     * As the public {@code create}, with a choice of page format: Tarn writes v1 pages (read by
     * every engine); tests write v2 pages to prove the reader handles them.
     */
    static ParquetDataWriter create(
            FileIO io, Path path, RowType rowType, Options options, WriterVersion version)
            throws IOException {
        WritePath writePath =
                FlatRowWriter.supports(rowType) && version == WriterVersion.PARQUET_1_0
                        ? WritePath.FLAT
                        : WritePath.RECORD;
        return create(io, path, rowType, options, version, writePath);
    }

    /** As above, through the given path; {@link WritePath#FLAT} needs a flat row type and v1. */
    static ParquetDataWriter create(
            FileIO io,
            Path path,
            RowType rowType,
            Options options,
            WriterVersion version,
            WritePath writePath)
            throws IOException {
        if (writePath == WritePath.FLAT && version != WriterVersion.PARQUET_1_0) {
            throw new IllegalArgumentException(
                    "The flat write path writes v1 pages only, not " + version);
        }
        ParquetOutputFile file = new ParquetOutputFile(io, path);
        try {
            ParquetRowWriter writer =
                    writePath == WritePath.FLAT
                            ? new FlatRowWriter(file, rowType, options.layout())
                            : new RecordRowWriter(file, rowType, options.layout(), version);
            return new ParquetDataWriter(io, path, rowType, file, writer, writePath);
        } catch (IOException | RuntimeException e) {
            if (file.created()) {
                file.closeQuietly();
                deleteQuietly(io, path, e);
            }
            throw e;
        }
    }

    /** Appends {@code row}; the caller may reuse it afterwards. */
    public void write(RowData row) throws IOException {
        checkOpen();
        try {
            writer.write(row);
        } catch (IOException | RuntimeException e) {
            // A half-written record leaves Parquet's column writers inconsistent: drop the file.
            abort();
            throw new IOException(
                    "Cannot write row " + rowCount + " to " + path + ", the file was deleted", e);
        }
        rowCount++;
    }

    WritePath writePath() {
        return writePath;
    }

    public long rowCount() {
        return rowCount;
    }

    /** Bytes written plus bytes buffered for the open row group; cheap enough to call per row. */
    public long estimatedLength() {
        return writer.dataSize();
    }

    /** Writes the footer, closes the file and returns what it holds. */
    public DataFileStats finish() throws IOException {
        checkOpen();
        closed = true;
        ParquetMetadata footer;
        try {
            footer = writer.finish();
        } catch (IOException | RuntimeException e) {
            file.closeQuietly();
            deleteQuietly(io, path, e);
            throw new IOException("Cannot finish Parquet file " + path, e);
        }
        finished = true;
        return new DataFileStats(rowCount, file.position(), FooterStats.of(footer, rowType));
    }

    /** Closes the file without finishing it and deletes it; never throws. */
    public void abort() {
        if (closed) {
            return;
        }
        closed = true;
        writer.abort();
        file.closeQuietly();
        deleteQuietly(io, path, null);
    }

    /** Same as {@link #abort()} unless {@link #finish()} was called. */
    @Override
    public void close() throws IOException {
        if (!finished) {
            abort();
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException(
                    "Parquet writer for " + path + " is " + (finished ? "finished" : "aborted"));
        }
    }

    private static void deleteQuietly(FileIO io, Path path, Throwable cause) {
        try {
            io.delete(path, false);
        } catch (IOException | RuntimeException e) {
            if (cause != null) {
                cause.addSuppressed(e);
            }
        }
    }

    /** How rows reach Parquet's column writers; see {@link ParquetRowWriter}. */
    enum WritePath {
        /** Parquet's record API; any row type. */
        RECORD,
        /** Straight into the column writers; rows of atomic columns only. */
        FLAT
    }
}
