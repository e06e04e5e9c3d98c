package dev.tarn.format.parquet.schema;

import java.util.Arrays;
import org.apache.flink.table.data.DecimalData;

/**
 * How a DECIMAL(p, s) is stored: its unscaled value as INT32 for p <= 9, INT64 for p <= 18, and
 * otherwise as a big-endian two's complement FIXED_LEN_BYTE_ARRAY of the fewest bytes that hold
 * every p-digit value, all annotated DECIMAL(p, s) as the Parquet spec prescribes.
 */
public enum DecimalEncoding {
    INT32,
    INT64,
    FIXED;

    /** Largest precision an INT32 unscaled value holds (999,999,999 < 2^31). */
    static final int MAX_INT32_PRECISION = 9;

    /** Largest precision an INT64 unscaled value holds. */
    static final int MAX_INT64_PRECISION = 18;

    public static DecimalEncoding of(int precision) {
        if (precision <= MAX_INT32_PRECISION) {
            return INT32;
        }
        return precision <= MAX_INT64_PRECISION ? INT64 : FIXED;
    }

    /** Bytes of the fixed-length encoding: the smallest n with 2^(8n-1) > 10^precision. */
    public static int fixedLength(int precision) {
        int bytes = 1;
        while (Math.pow(2.0, 8.0 * bytes - 1) < Math.pow(10.0, precision)) {
            bytes++;
        }
        return bytes;
    }

    /** The unscaled value of {@code value}, sign-extended to {@code length} bytes. */
    public static byte[] toFixed(DecimalData value, int length) {
        byte[] minimal = value.toUnscaledBytes();
        if (minimal.length == length) {
            return minimal;
        }
        if (minimal.length > length) {
            throw new IllegalArgumentException(
                    "Decimal "
                            + value
                            + " needs "
                            + minimal.length
                            + " bytes, more than "
                            + length);
        }
        byte[] fixed = new byte[length];
        byte sign = minimal[0] < 0 ? (byte) -1 : 0;
        Arrays.fill(fixed, 0, length - minimal.length, sign);
        System.arraycopy(minimal, 0, fixed, length - minimal.length, minimal.length);
        return fixed;
    }
}
