package dev.tarn.format.parquet.write;

import dev.tarn.format.io.FileIO;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.Path;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * A Parquet {@link OutputFile} over {@link FileIO}. It only creates new files: Tarn never
 * overwrites a data file, so {@link #createOrOverwrite} is refused.
 */
public final class ParquetOutputFile implements OutputFile {

    /** Write buffer: large enough that page-sized writes pass through in few system calls. */
    private static final int BUFFER_BYTES = 64 * 1024;

    private final FileIO io;
    private final Path path;
    private Stream stream;

    public ParquetOutputFile(FileIO io, Path path) {
        this.io = io;
        this.path = path;
    }

    @Override
    public PositionOutputStream create(long blockSizeHint) throws IOException {
        if (stream != null) {
            throw new IllegalStateException("Parquet file " + path + " was already created");
        }
        FSDataOutputStream out;
        try {
            out = io.newOutputStream(path);
        } catch (FileAlreadyExistsException e) {
            throw new FileAlreadyExistsException(
                    path.toString(), null, "Cannot create Parquet file: it already exists");
        }
        stream = new Stream(out);
        return stream;
    }

    @Override
    public PositionOutputStream createOrOverwrite(long blockSizeHint) {
        throw new UnsupportedOperationException(
                "Cannot overwrite Parquet file " + path + ": data files are written once");
    }

    @Override
    public boolean supportsBlockSize() {
        return false;
    }

    @Override
    public long defaultBlockSize() {
        return 0;
    }

    @Override
    public String getPath() {
        return path.toString();
    }

    public boolean created() {
        return stream != null;
    }

    /** Bytes written so far, or 0 before {@link #create}. */
    public long position() {
        return stream == null ? 0 : stream.getPos();
    }

    /** Closes the underlying stream without writing anything more; used to abort. */
    public void closeQuietly() {
        if (stream != null) {
            try {
                stream.raw.close();
            } catch (IOException | RuntimeException ignored) {
                // Aborting: the file is deleted next, so a failed close changes nothing.
            }
        }
    }

    /**
     * Buffers (Parquet writes page headers a few bytes at a time, and Flink's local stream does a
     * system call per write) and counts its own position: the file is new, and the count stays
     * readable after close.
     */
    private static final class Stream extends PositionOutputStream {
        private final FSDataOutputStream raw;
        private final BufferedOutputStream out;
        private long position;

        Stream(FSDataOutputStream raw) {
            this.raw = raw;
            this.out = new BufferedOutputStream(raw, BUFFER_BYTES);
        }

        @Override
        public long getPos() {
            return position;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            position++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            position += len;
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }
}
