package dev.tarn.format.parquet.read;

import dev.tarn.format.io.FileIO;
import java.io.FileNotFoundException;
import java.io.FilterInputStream;
import java.io.IOException;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.Path;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A Parquet {@link InputFile} over {@link FileIO} whose length is known from the manifest (no
 * status call), counting every byte read from the file through any of its streams.
 */
public final class ParquetInputFile implements InputFile {

    private final FileIO io;
    private final Path path;
    private final long length;
    private long bytesRead;

    public ParquetInputFile(FileIO io, Path path, long length) {
        this.io = io;
        this.path = path;
        this.length = length;
    }

    @Override
    public long getLength() {
        return length;
    }

    @Override
    public SeekableInputStream newStream() throws IOException {
        FSDataInputStream in;
        try {
            in = io.newInputStream(path);
        } catch (FileNotFoundException e) {
            FileNotFoundException missing =
                    new FileNotFoundException(
                            "Cannot open Parquet file " + path + ": it does not exist");
            missing.initCause(e);
            throw missing;
        }
        return new Stream(in, new Counting(in));
    }

    public long bytesRead() {
        return bytesRead;
    }

    @Override
    public String toString() {
        return path.toString();
    }

    /** Counts bytes at the lowest level, so Parquet's bulk and single-byte reads both count. */
    private final class Counting extends FilterInputStream {
        Counting(FSDataInputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                bytesRead++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n > 0) {
                bytesRead += n;
            }
            return n;
        }
    }

    private static final class Stream extends DelegatingSeekableInputStream {
        private final FSDataInputStream seekable;

        Stream(FSDataInputStream seekable, Counting counting) {
            super(counting);
            this.seekable = seekable;
        }

        @Override
        public long getPos() throws IOException {
            return seekable.getPos();
        }

        @Override
        public void seek(long newPos) throws IOException {
            seekable.seek(newPos);
        }
    }
}
