package dev.tarn.catalog;

import dev.tarn.format.manifest.Partition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.flink.table.api.ValidationException;

/**
 * The {@code partitions} argument of a procedure, in Apache Paimon's syntax: partitions separated
 * by {@code ;}, each a list of {@code key=value} pairs separated by {@code ,}, e.g. {@code
 * 'dt=2026-11-30,hh=10;dt=2026-12-01'}. A partition is selected if one of the specs matches it:
 * each key of the spec has that value ({@value Partition#NULL_DIRECTORY} for NULL); keys a spec
 * leaves out match any value. Values are taken as written, without escaping.
 */
final class PartitionSpecs {

    private PartitionSpecs() {}

    /**
     * Parses {@code text} against the partition keys of {@code table}.
     *
     * @throws ValidationException naming the argument and what is wrong: an empty spec, a pair
     *     without {@code =}, a key that is not a partition key, a key given twice
     */
    static List<Map<String, String>> parse(String table, List<String> keys, String text) {
        if (keys.isEmpty()) {
            throw refuse(table, text, "the table has no partition keys");
        }
        List<Map<String, String>> specs = new ArrayList<>();
        for (String part : text.split(";", -1)) {
            if (part.isBlank()) {
                throw refuse(table, text, "a partition between ';' is empty");
            }
            Map<String, String> spec = new LinkedHashMap<>();
            for (String pair : part.split(",", -1)) {
                int eq = pair.indexOf('=');
                if (eq < 0) {
                    throw refuse(table, text, "'" + pair.trim() + "' is not key=value");
                }
                String key = pair.substring(0, eq).trim();
                String value = pair.substring(eq + 1).trim();
                if (!keys.contains(key)) {
                    throw refuse(
                            table,
                            text,
                            "'" + key + "' is no partition key; the partition keys are " + keys);
                }
                if (spec.put(key, value) != null) {
                    throw refuse(table, text, "key '" + key + "' is given twice in one partition");
                }
            }
            specs.add(spec);
        }
        return specs;
    }

    /** The partitions {@code specs} select, for a table with partition keys {@code keys}. */
    static Predicate<Partition> selector(List<String> keys, List<Map<String, String>> specs) {
        return partition -> specs.stream().anyMatch(spec -> matches(keys, spec, partition));
    }

    private static boolean matches(List<String> keys, Map<String, String> spec, Partition p) {
        for (Map.Entry<String, String> e : spec.entrySet()) {
            String value = p.values().get(keys.indexOf(e.getKey()));
            String text = value == null ? Partition.NULL_DIRECTORY : value;
            if (!text.equals(e.getValue())) {
                return false;
            }
        }
        return true;
    }

    private static ValidationException refuse(String table, String text, String reason) {
        return new ValidationException(
                String.format(
                        "Cannot compact table %s: argument 'partitions' ('%s') is malformed: %s."
                                + " Write partitions as 'k1=v1,k2=v2;k1=v3'",
                        table, text, reason));
    }
}
