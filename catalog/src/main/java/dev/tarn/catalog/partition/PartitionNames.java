package dev.tarn.catalog.partition;

import dev.tarn.format.manifest.Partition;
import java.util.List;
import javax.annotation.Nullable;

/**
 * How the catalog names a partition value wherever SQL gives or shows one as text: a {@code
 * PARTITION (k = '...')} spec, SHOW PARTITIONS, the system tables' {@code partition} column and the
 * compact procedure's {@code partitions} argument. A value is its own name, except that a NULL is
 * named {@value #NULL} and a value starting with a backslash gets one more in front. So NULL and
 * every string have names of their own, and each well-formed name names exactly one of them. A
 * spelling is needed because Flink passes a partition spec on as strings and refuses a NULL literal
 * in it.
 */
public final class PartitionNames {

    /** The name of a NULL value: how Hive's and MySQL's text formats write NULL. */
    static final String NULL = "\\N";

    private static final String BACKSLASH = "\\";

    private PartitionNames() {}

    /** The name of {@code value} (null for NULL). */
    static String name(@Nullable String value) {
        if (value == null) {
            return NULL;
        }
        return value.startsWith(BACKSLASH) ? BACKSLASH + value : value;
    }

    /**
     * The value {@code name} names, null for NULL; a null name (a spec built in code rather than
     * SQL) names NULL too.
     *
     * @param key the partition key the name is given for, for the message
     * @throws IllegalArgumentException for a name that starts with one backslash and is not {@value
     *     #NULL}, saying how to write the value it looks like
     */
    @Nullable
    static String value(String key, @Nullable String name) {
        if (name == null || name.equals(NULL)) {
            return null;
        }
        if (!name.startsWith(BACKSLASH)) {
            return name;
        }
        if (name.startsWith(BACKSLASH + BACKSLASH)) {
            return name.substring(1);
        }
        throw new IllegalArgumentException(
                String.format(
                        "value '%s' of %s starts with a backslash but is neither %s (NULL) nor"
                                + " a doubled backslash; '\\%s' names the value %s",
                        name, key, NULL, name, name));
    }

    /**
     * A partition as one text, {@code k1=n1/k2=n2} in partition-key order with each value by its
     * name (as SHOW PARTITIONS prints it); empty for an unpartitioned table.
     */
    public static String text(List<String> keys, Partition partition) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < keys.size(); i++) {
            text.append(i == 0 ? "" : "/")
                    .append(keys.get(i))
                    .append('=')
                    .append(name(partition.values().get(i)));
        }
        return text.toString();
    }
}
