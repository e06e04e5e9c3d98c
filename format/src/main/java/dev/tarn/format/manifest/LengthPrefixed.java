package dev.tarn.format.manifest;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The variable-length fields of metadata file bodies (SPEC.md section 4): bytes and strings as an
 * {@code int32} length followed by that many bytes (UTF-8 for strings), a nullable string as a
 * presence byte followed by the string if present. A length outside the bound fails instead of
 * allocating whatever a damaged file claims.
 */
final class LengthPrefixed {

    /** Upper bound for a length prefix: no metadata string or blob is near this. */
    private static final int MAX_LENGTH = 64 << 20;

    static void writeBytes(DataOutput out, byte[] bytes) throws IOException {
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    static byte[] readBytes(DataInput in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > MAX_LENGTH) {
            throw new IOException("Invalid length prefix " + length);
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return bytes;
    }

    static void writeString(DataOutput out, String s) throws IOException {
        writeBytes(out, s.getBytes(StandardCharsets.UTF_8));
    }

    static String readString(DataInput in) throws IOException {
        return new String(readBytes(in), StandardCharsets.UTF_8);
    }

    /** A string that may be null: a presence byte, then the string. */
    static void writeNullableString(DataOutput out, String s) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) {
            writeString(out, s);
        }
    }

    static String readNullableString(DataInput in) throws IOException {
        return in.readBoolean() ? readString(in) : null;
    }

    private LengthPrefixed() {}
}
