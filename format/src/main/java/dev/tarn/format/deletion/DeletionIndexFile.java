package dev.tarn.format.deletion;

import dev.tarn.format.io.FileIO;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.Path;

/**
 * Index files: the deletion vectors of many data files in one Puffin file (SPEC.md, "Deletion
 * vectors"), which Apache Iceberg v3 readers read as deletion vector files. The file is the magic
 * {@code PFA1}, one {@code deletion-vector-v1} blob per data file, and a footer: the magic, a JSON
 * payload listing each blob's data file, offset, length and cardinality, the payload's size (4
 * bytes, little-endian), 4 bytes of flags (all zero: the payload is not compressed) and the magic
 * again. A reader reads the footer first, then only the blobs it needs.
 */
public final class DeletionIndexFile {

    static final byte[] MAGIC = "PFA1".getBytes(StandardCharsets.US_ASCII);

    /** Payload size, flags and magic at the end of the file. */
    private static final int FOOTER_TAIL = 12;

    private final FileIO io;

    public DeletionIndexFile(FileIO io) {
        this.io = io;
    }

    /**
     * Writes the vectors of {@code vectors} (by data file, in the map's order) to {@code path}, a
     * new, unique name: written whole or not at all, never partly visible.
     *
     * @return where each vector lies in the file, in the map's order
     * @throws IllegalArgumentException naming the data file if a vector is empty (a file without
     *     deleted rows has none), or if there are no vectors
     */
    public List<DeletionVectorBlob> write(Path path, Map<String, DeletionVector> vectors)
            throws IOException {
        if (vectors.isEmpty()) {
            throw new IllegalArgumentException(
                    "Index file " + path + " needs at least one deletion vector, got none");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(MAGIC);
        List<DeletionVectorBlob> blobs = new ArrayList<>(vectors.size());
        for (Map.Entry<String, DeletionVector> entry : vectors.entrySet()) {
            DeletionVector vector = entry.getValue();
            if (vector.isEmpty()) {
                throw new IllegalArgumentException(
                        "Deletion vector of data file "
                                + entry.getKey()
                                + " is empty: a file without deleted rows has no vector");
            }
            byte[] blob = DeletionVectorCodec.encode(vector);
            blobs.add(
                    new DeletionVectorBlob(
                            entry.getKey(), out.size(), blob.length, vector.cardinality()));
            out.writeBytes(blob);
        }
        byte[] payload = PuffinFooter.toJson(blobs);
        out.writeBytes(MAGIC);
        out.writeBytes(payload);
        ByteBuffer sizeAndFlags = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        out.writeBytes(sizeAndFlags.putInt(payload.length).putInt(0).array());
        out.writeBytes(MAGIC);
        io.overwrite(path, out.toByteArray());
        return List.copyOf(blobs);
    }

    /**
     * The vectors the footer of {@code path} lists, in file order; reads only the footer.
     *
     * @throws IOException naming the file, what is wrong and the value found if it is truncated or
     *     its footer is malformed
     */
    public List<DeletionVectorBlob> readFooter(Path path) throws IOException {
        long size = io.status(path).getLen();
        if (size < 2L * MAGIC.length + FOOTER_TAIL) {
            throw corrupt(path, "truncated, " + size + " bytes");
        }
        try (FSDataInputStream in = io.newInputStream(path)) {
            checkMagic(path, read(in, 0, MAGIC.length), 0, "start");
            ByteBuffer tail = ByteBuffer.wrap(read(in, size - FOOTER_TAIL, FOOTER_TAIL));
            checkMagic(path, tail.array(), 8, "end");
            int payloadSize = tail.order(ByteOrder.LITTLE_ENDIAN).getInt(0);
            int flags = tail.getInt(4);
            if (flags != 0) {
                throw corrupt(
                        path,
                        String.format(
                                "footer flags 0x%08X, expected 0 (an uncompressed footer)", flags));
            }
            long footerStart = size - FOOTER_TAIL - payloadSize - MAGIC.length;
            if (payloadSize < 0 || footerStart < MAGIC.length) {
                throw corrupt(
                        path,
                        "footer payload size "
                                + payloadSize
                                + " does not fit in a file of "
                                + size
                                + " bytes");
            }
            byte[] footer = read(in, footerStart, MAGIC.length + payloadSize);
            checkMagic(path, footer, 0, "footer start");
            try {
                return PuffinFooter.parse(
                        Arrays.copyOfRange(footer, MAGIC.length, footer.length), footerStart);
            } catch (IOException | IllegalArgumentException e) {
                throw corrupt(path, "footer: " + e.getMessage());
            }
        }
    }

    /**
     * The vector {@code blob} of the index file {@code path}.
     *
     * @throws IOException naming the data file and the index file if the blob is corrupt or its
     *     cardinality differs from the one the footer records
     */
    public DeletionVector read(Path path, DeletionVectorBlob blob) throws IOException {
        String source = "of data file " + blob.dataFile() + " in index file " + path;
        byte[] bytes;
        try (FSDataInputStream in = io.newInputStream(path)) {
            bytes = read(in, blob.offset(), (int) blob.length());
        } catch (EOFException e) {
            throw new IOException(
                    "Corrupt deletion vector " + source + ": truncated, " + e.getMessage(), e);
        }
        DeletionVector vector = DeletionVectorCodec.decode(bytes, source);
        if (vector.cardinality() != blob.cardinality()) {
            throw new IOException(
                    "Corrupt deletion vector "
                            + source
                            + ": it holds "
                            + vector.cardinality()
                            + " positions, the footer says "
                            + blob.cardinality());
        }
        return vector;
    }

    private static byte[] read(FSDataInputStream in, long offset, int length) throws IOException {
        in.seek(offset);
        byte[] bytes = in.readNBytes(length);
        if (bytes.length < length) {
            throw new EOFException(
                    length + " bytes wanted at offset " + offset + ", " + bytes.length + " read");
        }
        return bytes;
    }

    private static void checkMagic(Path path, byte[] bytes, int offset, String where)
            throws IOException {
        byte[] found = Arrays.copyOfRange(bytes, offset, offset + MAGIC.length);
        if (!Arrays.equals(found, MAGIC)) {
            throw corrupt(
                    path,
                    "no Puffin magic PFA1 at its "
                            + where
                            + ", found 0x"
                            + HexFormat.of().formatHex(found)
                            + " (truncated, or not an index file)");
        }
    }

    private static IOException corrupt(Path path, String reason) {
        return new IOException("Corrupt index file " + path + ": " + reason);
    }
}
