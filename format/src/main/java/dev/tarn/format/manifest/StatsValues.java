package dev.tarn.format.manifest;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

/**
 * Self-describing binary encoding of one statistics value: a tag byte, then the value (SPEC.md,
 * "Statistics values"). Self-describing so that a manifest can be read without its schema.
 */
final class StatsValues {

    private static final byte NULL = 0;
    private static final byte BOOLEAN = 1;
    private static final byte BYTE = 2;
    private static final byte SHORT = 3;
    private static final byte INT = 4;
    private static final byte LONG = 5;
    private static final byte FLOAT = 6;
    private static final byte DOUBLE = 7;
    private static final byte STRING = 8;
    private static final byte DECIMAL = 9;
    private static final byte TIMESTAMP = 10;
    private static final byte BYTES = 11;

    static void write(DataOutput out, Object value) throws IOException {
        if (value == null) {
            out.writeByte(NULL);
        } else if (value instanceof Boolean b) {
            out.writeByte(BOOLEAN);
            out.writeBoolean(b);
        } else if (value instanceof Byte b) {
            out.writeByte(BYTE);
            out.writeByte(b);
        } else if (value instanceof Short s) {
            out.writeByte(SHORT);
            out.writeShort(s);
        } else if (value instanceof Integer i) {
            out.writeByte(INT);
            out.writeInt(i);
        } else if (value instanceof Long l) {
            out.writeByte(LONG);
            out.writeLong(l);
        } else if (value instanceof Float f) {
            out.writeByte(FLOAT);
            out.writeFloat(f);
        } else if (value instanceof Double d) {
            out.writeByte(DOUBLE);
            out.writeDouble(d);
        } else if (value instanceof StringData s) {
            out.writeByte(STRING);
            LengthPrefixed.writeBytes(out, s.toBytes());
        } else if (value instanceof DecimalData d) {
            out.writeByte(DECIMAL);
            out.writeByte(d.precision());
            out.writeByte(d.scale());
            LengthPrefixed.writeBytes(out, d.toBigDecimal().unscaledValue().toByteArray());
        } else if (value instanceof TimestampData t) {
            out.writeByte(TIMESTAMP);
            out.writeLong(t.getMillisecond());
            out.writeInt(t.getNanoOfMillisecond());
        } else if (value instanceof byte[] bytes) {
            out.writeByte(BYTES);
            LengthPrefixed.writeBytes(out, bytes);
        } else {
            throw new IllegalArgumentException(
                    "Unsupported statistics value of " + value.getClass().getName());
        }
    }

    static Object read(DataInput in) throws IOException {
        byte tag = in.readByte();
        return switch (tag) {
            case NULL -> null;
            case BOOLEAN -> in.readBoolean();
            case BYTE -> in.readByte();
            case SHORT -> in.readShort();
            case INT -> in.readInt();
            case LONG -> in.readLong();
            case FLOAT -> in.readFloat();
            case DOUBLE -> in.readDouble();
            case STRING -> StringData.fromBytes(LengthPrefixed.readBytes(in));
            case DECIMAL -> {
                int precision = in.readByte();
                int scale = in.readByte();
                BigInteger unscaled = new BigInteger(LengthPrefixed.readBytes(in));
                yield DecimalData.fromBigDecimal(new BigDecimal(unscaled, scale), precision, scale);
            }
            case TIMESTAMP -> TimestampData.fromEpochMillis(in.readLong(), in.readInt());
            case BYTES -> LengthPrefixed.readBytes(in);
            default -> throw new IOException("Unknown statistics value tag " + tag);
        };
    }

    private StatsValues() {}
}
