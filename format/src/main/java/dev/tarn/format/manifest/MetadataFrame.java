package dev.tarn.format.manifest;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32;

/**
 * The frame of Tarn's binary metadata files (manifests and manifest lists, SPEC.md section 4): a
 * 4-byte magic, a format version byte, the body, and a CRC-32 of everything before it. A truncated
 * or damaged file fails the check with a message that names the file, instead of decoding garbage.
 */
final class MetadataFrame {

    /** Frames {@code body} as a file of kind {@code magic} written with format {@code version}. */
    static byte[] frame(byte[] magic, int version, ByteArrayOutputStream body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.size() + 9);
        out.writeBytes(magic);
        out.write(version);
        out.writeBytes(body.toByteArray());
        CRC32 crc = new CRC32();
        byte[] framed = out.toByteArray();
        crc.update(framed);
        return ByteBuffer.allocate(framed.length + 4)
                .put(framed)
                .putInt((int) crc.getValue())
                .array();
    }

    /** A checked file's body, and the version it was written with. */
    record Body(int version, DataInputStream in) {}

    /**
     * Checks the frame of {@code bytes}, read from {@code source}, and returns its body.
     *
     * @throws IOException naming {@code source} if the magic, the checksum or the version is wrong
     */
    static Body unframe(byte[] bytes, byte[] magic, int maxVersion, String source)
            throws IOException {
        if (bytes.length < magic.length + 5
                || !Arrays.equals(Arrays.copyOf(bytes, magic.length), magic)) {
            throw new IOException(
                    "Corrupt metadata file "
                            + source
                            + ": it does not start with "
                            + new String(magic, StandardCharsets.US_ASCII)
                            + " (truncated, or not a Tarn file)");
        }
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, bytes.length - 4);
        int stored = ByteBuffer.wrap(bytes, bytes.length - 4, 4).getInt();
        if (stored != (int) crc.getValue()) {
            throw new IOException(
                    "Corrupt metadata file "
                            + source
                            + ": checksum mismatch (truncated or damaged)");
        }
        int version = bytes[magic.length] & 0xFF;
        if (version < 1 || version > maxVersion) {
            throw new IOException(
                    "Cannot read metadata file "
                            + source
                            + ": format version "
                            + version
                            + " is not supported (supported: 1 to "
                            + maxVersion
                            + ")");
        }
        return new Body(
                version,
                new DataInputStream(
                        new ByteArrayInputStream(
                                bytes, magic.length + 1, bytes.length - magic.length - 5)));
    }

    private MetadataFrame() {}
}
