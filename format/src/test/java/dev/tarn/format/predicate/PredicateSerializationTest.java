package dev.tarn.format.predicate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.List;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

/** Filters travel to tasks by Java serialization, literals of every internal type included. */
class PredicateSerializationTest {

    @SuppressWarnings("unchecked")
    private static <T> T roundTrip(T value) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        try (ObjectInputStream in =
                new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (T) in.readObject();
        }
    }

    @Test
    void stringDecimalAndTimestampLiteralsSurvive() throws Exception {
        Predicate filter =
                new Predicate.And(
                        List.of(
                                new Predicate.Leaf(
                                        Predicate.Op.EQ,
                                        0,
                                        "s",
                                        VarCharType.STRING_TYPE,
                                        List.of(StringData.fromString("x"))),
                                new Predicate.Leaf(
                                        Predicate.Op.LT,
                                        1,
                                        "d",
                                        new DecimalType(12, 2),
                                        List.of(
                                                DecimalData.fromBigDecimal(
                                                        new BigDecimal("-1.25"), 12, 2))),
                                new Predicate.Leaf(
                                        Predicate.Op.GT_EQ,
                                        2,
                                        "t",
                                        new TimestampType(6),
                                        List.of(
                                                TimestampData.fromLocalDateTime(
                                                        LocalDateTime.of(
                                                                2026, 11, 30, 8, 1, 2, 3000)))),
                                new Predicate.Leaf(
                                        Predicate.Op.IN,
                                        3,
                                        "n",
                                        new org.apache.flink.table.types.logical.BigIntType(),
                                        List.of(1L, 2L))));
        assertThat(roundTrip(filter)).isEqualTo(filter);
    }
}
