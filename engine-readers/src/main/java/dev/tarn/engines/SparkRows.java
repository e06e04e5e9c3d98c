package dev.tarn.engines;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Spark rows as stable text, the form a test compares with Flink's rows: {@code [v1, v2, ...]},
 * {@code null} for a null, nested rows and arrays in brackets, maps as {@code {k=v, ...}} sorted by
 * key, binary values in hex. Scalars print as their Java values do (with Spark's java.time values,
 * a timestamp without time zone as {@code 2026-12-01T10:15}, as Flink prints it).
 */
final class SparkRows {

    static String format(Row row) {
        List<String> values = new ArrayList<>(row.length());
        for (int i = 0; i < row.length(); i++) {
            values.add(value(row.get(i)));
        }
        return "[" + String.join(", ", values) + "]";
    }

    private static String value(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof Row nested) {
            return format(nested);
        }
        if (value instanceof byte[] bytes) {
            return HexFormat.of().formatHex(bytes);
        }
        if (value instanceof scala.collection.Map<?, ?> map) {
            Map<String, String> sorted = new TreeMap<>();
            CollectionConverters.asJava(map).forEach((k, v) -> sorted.put(value(k), value(v)));
            return sorted.toString();
        }
        if (value instanceof scala.collection.Iterable<?> items) {
            List<String> values = new ArrayList<>();
            CollectionConverters.asJava(items).forEach(v -> values.add(value(v)));
            return "[" + String.join(", ", values) + "]";
        }
        return value.toString();
    }

    private SparkRows() {}
}
