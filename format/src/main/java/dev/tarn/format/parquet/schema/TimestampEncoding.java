package dev.tarn.format.parquet.schema;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.flink.table.data.TimestampData;

/**
 * How a TIMESTAMP or TIMESTAMP_LTZ of a given precision is stored. Precision 0-3 is INT64
 * TIMESTAMP(MILLIS) and 4-6 is INT64 TIMESTAMP(MICROS), both exact. Precision 7-9 is INT96 (8 bytes
 * little-endian nanoseconds of the day, then 4 bytes little-endian Julian day number): INT64
 * nanoseconds would only reach the years 1677-2262, while INT96 covers 0001-9999 exactly and is
 * what Spark, Hive, Impala and Flink's own Parquet format read and write for nanosecond values. All
 * three use the proleptic Gregorian calendar, as Flink's {@link TimestampData} does.
 */
public enum TimestampEncoding {
    MILLIS,
    MICROS,
    INT96;

    /** Julian day number of 1970-01-01. */
    private static final long JULIAN_EPOCH_DAY = 2_440_588L;

    private static final long MILLIS_PER_DAY = 86_400_000L;
    private static final long NANOS_PER_MILLI = 1_000_000L;
    private static final int INT96_BYTES = 12;

    public static TimestampEncoding of(int precision) {
        if (precision <= 3) {
            return MILLIS;
        }
        return precision <= 6 ? MICROS : INT96;
    }

    /** The INT64 value of {@code ts}; only for {@link #MILLIS} and {@link #MICROS}. */
    public long toLong(TimestampData ts) {
        if (this == MILLIS) {
            return ts.getMillisecond();
        }
        return Math.addExact(
                Math.multiplyExact(ts.getMillisecond(), 1000L), ts.getNanoOfMillisecond() / 1000);
    }

    /** The timestamp of an INT64 value; only for {@link #MILLIS} and {@link #MICROS}. */
    public TimestampData toFlinkTimestamp(long value) {
        if (this == MILLIS) {
            return TimestampData.fromEpochMillis(value);
        }
        return TimestampData.fromEpochMillis(
                Math.floorDiv(value, 1000L), (int) Math.floorMod(value, 1000L) * 1000);
    }

    /** Writes the 12 INT96 bytes of {@code ts} into {@code out} (length 12). */
    public static byte[] toInt96(TimestampData ts, byte[] out) {
        long millis = ts.getMillisecond();
        long day = Math.floorDiv(millis, MILLIS_PER_DAY);
        long nanosOfDay =
                Math.floorMod(millis, MILLIS_PER_DAY) * NANOS_PER_MILLI + ts.getNanoOfMillisecond();
        ByteBuffer.wrap(out)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putLong(nanosOfDay)
                .putInt((int) (day + JULIAN_EPOCH_DAY));
        return out;
    }

    /** Reads the 12 INT96 bytes at {@code buffer}'s position, without moving it. */
    public static TimestampData fromInt96(ByteBuffer buffer) {
        if (buffer.remaining() != INT96_BYTES) {
            throw new IllegalArgumentException(
                    "An INT96 timestamp has 12 bytes, got " + buffer.remaining());
        }
        ByteBuffer le = buffer.slice().order(ByteOrder.LITTLE_ENDIAN);
        long nanosOfDay = le.getLong(0);
        long day = le.getInt(8) - JULIAN_EPOCH_DAY;
        long millis = day * MILLIS_PER_DAY + nanosOfDay / NANOS_PER_MILLI;
        return TimestampData.fromEpochMillis(millis, (int) (nanosOfDay % NANOS_PER_MILLI));
    }

    public static int int96Bytes() {
        return INT96_BYTES;
    }
}
