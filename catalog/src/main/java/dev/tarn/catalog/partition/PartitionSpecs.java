package dev.tarn.catalog.partition;

import dev.tarn.format.manifest.Partition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import org.apache.flink.table.api.ValidationException;

/**
 * The {@code partitions} argument of a procedure, in Apache Paimon's syntax: partitions separated
 * by {@code ;}, each a list of {@code key=value} pairs separated by {@code ,}, e.g. {@code
 * 'dt=2026-11-30,hh=10;dt=2026-12-01'}. A partition is selected if one of the specs matches it:
 * each key of the spec has the value its {@linkplain PartitionNames name} names ({@value
 * PartitionNames#NULL} for NULL); keys a spec leaves out match any value. Names are trimmed; a
 * value with a {@code ,} or {@code ;} or surrounding blanks is selected through {@code where}.
 */
public final class PartitionSpecs {

    private PartitionSpecs() {}

    /**
     * Parses {@code text} against the partition keys of {@code table}.
     *
     * @return per partition, its keys with their values (null for NULL)
     * @throws ValidationException naming the argument and what is wrong: an empty spec, a pair
     *     without {@code =}, a key that is not a partition key, a key given twice, a malformed name
     */
    public static List<Map<String, String>> parse(String table, List<String> keys, String text) {
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
                if (spec.containsKey(key)) {
                    throw refuse(table, text, "key '" + key + "' is given twice in one partition");
                }
                try {
                    spec.put(key, PartitionNames.value(key, value));
                } catch (IllegalArgumentException e) {
                    throw refuse(table, text, e.getMessage());
                }
            }
            specs.add(spec);
        }
        return specs;
    }

    /** The partitions {@code specs} select, for a table with partition keys {@code keys}. */
    public static Predicate<Partition> selector(
            List<String> keys, List<Map<String, String>> specs) {
        return partition -> specs.stream().anyMatch(spec -> matches(keys, spec, partition));
    }

    private static boolean matches(List<String> keys, Map<String, String> spec, Partition p) {
        for (Map.Entry<String, String> e : spec.entrySet()) {
            if (!Objects.equals(p.values().get(keys.indexOf(e.getKey())), e.getValue())) {
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
