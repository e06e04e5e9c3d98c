package dev.tarn.format.iceberg;

import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.Path;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * Iceberg's file I/O over Tarn's ({@link dev.tarn.format.io.FileIO}): Iceberg's metadata code reads
 * and writes through it, on every file system and object store Tarn serves, without Hadoop. Public
 * so that Iceberg readers in tests and tools can open a Tarn table's Iceberg metadata.
 */
public final class IcebergFileIO implements FileIO {

    private static final long serialVersionUID = 1L;

    private final dev.tarn.format.io.FileIO io;

    public IcebergFileIO(dev.tarn.format.io.FileIO io) {
        this.io = io;
    }

    @Override
    public InputFile newInputFile(String location) {
        return new In(io, location, -1);
    }

    @Override
    public InputFile newInputFile(String location, long length) {
        return new In(io, location, length);
    }

    @Override
    public OutputFile newOutputFile(String location) {
        return new Out(io, location);
    }

    @Override
    public void deleteFile(String location) {
        try {
            io.delete(new Path(location), false);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete " + location + ": " + e.getMessage(), e);
        }
    }

    /** A file to read; its length is looked up once, when first asked for. */
    private static final class In implements InputFile {

        private final dev.tarn.format.io.FileIO io;
        private final String location;
        private long length;

        In(dev.tarn.format.io.FileIO io, String location, long length) {
            this.io = io;
            this.location = location;
            this.length = length;
        }

        @Override
        public long getLength() {
            if (length < 0) {
                try {
                    length = io.status(new Path(location)).getLen();
                } catch (FileNotFoundException e) {
                    throw new NotFoundException(e, "File does not exist: %s", location);
                } catch (IOException e) {
                    throw new UncheckedIOException(
                            "Cannot get the length of " + location + ": " + e.getMessage(), e);
                }
            }
            return length;
        }

        @Override
        public SeekableInputStream newStream() {
            try {
                return new Stream(io.newInputStream(new Path(location)));
            } catch (FileNotFoundException e) {
                throw new NotFoundException(e, "File does not exist: %s", location);
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "Cannot open " + location + ": " + e.getMessage(), e);
            }
        }

        @Override
        public String location() {
            return location;
        }

        @Override
        public boolean exists() {
            try {
                return io.exists(new Path(location));
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "Cannot check " + location + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * A file to write whole: its bytes are kept in memory and put in one write when the stream
     * closes. Iceberg's metadata files are small. One created new is written under its name ({@link
     * dev.tarn.format.io.FileIO#writeNew}: no reader opens it before a published version names it);
     * one that may replace a file, in one atomic write ({@link
     * dev.tarn.format.io.FileIO#overwrite}), so a reader never sees part of it.
     */
    private static final class Out implements OutputFile {

        private final dev.tarn.format.io.FileIO io;
        private final String location;

        Out(dev.tarn.format.io.FileIO io, String location) {
            this.io = io;
            this.location = location;
        }

        /** A new file (Iceberg names its manifests and lists uniquely): written straight. */
        @Override
        public PositionOutputStream create() {
            return new Sink(io, new Path(location), true);
        }

        @Override
        public PositionOutputStream createOrOverwrite() {
            return new Sink(io, new Path(location), false);
        }

        @Override
        public String location() {
            return location;
        }

        @Override
        public InputFile toInputFile() {
            return new In(io, location, -1);
        }
    }

    private static final class Stream extends SeekableInputStream {

        private final FSDataInputStream in;

        Stream(FSDataInputStream in) {
            this.in = in;
        }

        @Override
        public long getPos() throws IOException {
            return in.getPos();
        }

        @Override
        public void seek(long newPos) throws IOException {
            in.seek(newPos);
        }

        @Override
        public int read() throws IOException {
            return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return in.read(b, off, len);
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    private static final class Sink extends PositionOutputStream {

        private final dev.tarn.format.io.FileIO io;
        private final Path path;
        private final boolean created;
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private boolean closed;

        Sink(dev.tarn.format.io.FileIO io, Path path, boolean created) {
            this.io = io;
            this.path = path;
            this.created = created;
        }

        @Override
        public long getPos() {
            return bytes.size();
        }

        @Override
        public void write(int b) {
            bytes.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            bytes.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            if (!closed) {
                closed = true;
                if (created) {
                    io.writeNew(path, bytes.toByteArray());
                } else {
                    io.overwrite(path, bytes.toByteArray());
                }
            }
        }
    }
}
