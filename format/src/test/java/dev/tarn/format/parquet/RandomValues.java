package dev.tarn.format.parquet;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;

/** Random Flink internal values of any type, about one in five null where nullable. */
final class RandomValues {

    /** Epoch seconds of 0001-01-01T00:00:00 and 9999-12-31T23:59:59. */
    static final long MIN_SECOND = LocalDateTime.of(1, 1, 1, 0, 0).toEpochSecond(ZoneOffset.UTC);

    static final long MAX_SECOND =
            LocalDateTime.of(9999, 12, 31, 23, 59, 59).toEpochSecond(ZoneOffset.UTC);

    private final Random random;

    RandomValues(long seed) {
        this.random = new Random(seed);
    }

    GenericRowData row(RowType type) {
        GenericRowData row = new GenericRowData(type.getFieldCount());
        for (int i = 0; i < type.getFieldCount(); i++) {
            row.setField(i, value(type.getTypeAt(i)));
        }
        return row;
    }

    Object value(LogicalType type) {
        if (type.isNullable() && random.nextInt(5) == 0) {
            return null;
        }
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return random.nextBoolean();
            case TINYINT:
                return (byte) random.nextInt();
            case SMALLINT:
                return (short) random.nextInt();
            case INTEGER:
                return random.nextInt();
            case DATE:
                return random.nextInt(5_000_000) - 1_000_000;
            case TIME_WITHOUT_TIME_ZONE:
                return random.nextInt(86_400_000);
            case BIGINT:
                return random.nextLong();
            case FLOAT:
                return random.nextFloat() * 1e6f - 5e5f;
            case DOUBLE:
                return random.nextGaussian() * 1e12;
            case CHAR:
            case VARCHAR:
                return StringData.fromString(string(random.nextInt(12)));
            case BINARY:
            case VARBINARY:
                byte[] bytes = new byte[random.nextInt(10)];
                random.nextBytes(bytes);
                return bytes;
            case DECIMAL:
                DecimalType decimal = (DecimalType) type;
                BigInteger unscaled =
                        new BigInteger(decimal.getPrecision() * 3, random)
                                .mod(BigInteger.TEN.pow(decimal.getPrecision()));
                if (random.nextBoolean()) {
                    unscaled = unscaled.negate();
                }
                return DecimalData.fromBigDecimal(
                        new BigDecimal(unscaled, decimal.getScale()),
                        decimal.getPrecision(),
                        decimal.getScale());
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return timestamp(LogicalTypeChecks.getPrecision(type));
            case ARRAY:
                LogicalType element = ((ArrayType) type).getElementType();
                Object[] elements = new Object[random.nextInt(4)];
                for (int i = 0; i < elements.length; i++) {
                    elements[i] = value(element);
                }
                return new GenericArrayData(elements);
            case MAP:
                MapType map = (MapType) type;
                return map(map.getKeyType(), map.getValueType(), false);
            case MULTISET:
                return map(((MultisetType) type).getElementType(), null, true);
            case ROW:
                return row((RowType) type);
            default:
                throw new IllegalArgumentException("No random values of " + type);
        }
    }

    private GenericMapData map(LogicalType keyType, LogicalType valueType, boolean counts) {
        Map<Object, Object> entries = new HashMap<>();
        int size = random.nextInt(4);
        for (int i = 0; i < size; i++) {
            entries.put(value(keyType), counts ? random.nextInt(5) + 1 : value(valueType));
        }
        return new GenericMapData(entries);
    }

    String string(int length) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < length; i++) {
            int kind = random.nextInt(10);
            switch (kind) {
                case 0 -> s.append('é');
                case 1 -> s.append('字');
                case 2 -> s.append("😀"); // a surrogate pair: four bytes of UTF-8
                default -> s.append((char) ('a' + random.nextInt(26)));
            }
        }
        return s.toString();
    }

    TimestampData timestamp(int precision) {
        long second = MIN_SECOND + (long) (random.nextDouble() * (MAX_SECOND - MIN_SECOND));
        int nanos = random.nextInt(1_000_000_000);
        int unit = (int) Math.pow(10, 9 - precision);
        nanos = nanos / unit * unit;
        return TimestampData.fromEpochMillis(second * 1000 + nanos / 1_000_000, nanos % 1_000_000);
    }
}
