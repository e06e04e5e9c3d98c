package dev.tarn.format.bucket;

import java.math.BigDecimal;
import java.time.LocalDate;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * Converts partition values between Flink internal data and the strings a {@link
 * dev.tarn.format.manifest.Partition} holds. The mapping is one-to-one for every partition type a
 * table accepts (the partition types the schema rules allow).
 */
final class PartitionValues {

    static String toText(Object internal, LogicalType type) {
        if (internal == null) {
            return null;
        }
        return switch (type.getTypeRoot()) {
            case DATE -> LocalDate.ofEpochDay((Integer) internal).toString();
            case DECIMAL -> ((DecimalData) internal).toBigDecimal().toPlainString();
            default -> internal.toString();
        };
    }

    static Object fromText(String text, LogicalType type) {
        if (text == null) {
            return null;
        }
        return switch (type.getTypeRoot()) {
            case CHAR, VARCHAR -> StringData.fromString(text);
            case BOOLEAN -> Boolean.parseBoolean(text);
            case TINYINT -> Byte.parseByte(text);
            case SMALLINT -> Short.parseShort(text);
            case INTEGER -> Integer.parseInt(text);
            case BIGINT -> Long.parseLong(text);
            case DATE -> (int) LocalDate.parse(text).toEpochDay();
            case DECIMAL -> {
                DecimalType d = (DecimalType) type;
                yield DecimalData.fromBigDecimal(
                        new BigDecimal(text), d.getPrecision(), d.getScale());
            }
            default ->
                    throw new IllegalArgumentException(
                            "Unsupported partition type " + type.asSummaryString());
        };
    }

    private PartitionValues() {}
}
