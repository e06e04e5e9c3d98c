package dev.tarn.format.schema;

import java.util.Arrays;
import java.util.List;

/**
 * What a streaming read of a primary-key table emits, and what its writers store for it ({@code
 * changelog-producer}, with Apache Paimon's names). Append tables have no producer: their new files
 * are their changes.
 */
public enum ChangelogProducer {

    /**
     * Writers store nothing extra; a streaming read emits each snapshot's new versions as upserts
     * and deletes by key, which Flink normalizes into a changelog with state of its own.
     */
    NONE("none", true),

    /**
     * Writers also store their input, every change as it came, in changelog files beside the data
     * files; a streaming read emits exactly those, so a complete input changelog passes through.
     */
    INPUT("input", true),

    /** Writers look up each changed key's previous row and store a complete changelog. */
    LOOKUP("lookup", false),

    /** Full compactions store the changelog between the rows they replace and write. */
    FULL_COMPACTION("full-compaction", false);

    private final String key;
    private final boolean supported;

    ChangelogProducer(String key, boolean supported) {
        this.key = key;
        this.supported = supported;
    }

    /** The value of {@code changelog-producer} that selects this producer. */
    public String key() {
        return key;
    }

    /** Whether writers store changelog files for it. */
    public boolean writesChangelogFiles() {
        return this != NONE;
    }

    /**
     * The producer the option value names, matched exactly.
     *
     * @throws IllegalArgumentException naming the value, the table and the supported values, or
     *     saying that this version of Tarn cannot produce it yet
     */
    public static ChangelogProducer fromOption(String table, String value) {
        for (ChangelogProducer producer : values()) {
            if (producer.key.equals(value)) {
                if (!producer.supported) {
                    throw new IllegalArgumentException(
                            String.format(
                                    "Option 'changelog-producer' of table %s: '%s' is not"
                                            + " supported by this version of Tarn; supported are"
                                            + " %s",
                                    table, value, keys()));
                }
                return producer;
            }
        }
        throw new IllegalArgumentException(
                String.format(
                        "Invalid value '%s' for option 'changelog-producer' of table %s; supported"
                                + " are %s",
                        value, table, keys()));
    }

    static List<String> keys() {
        return Arrays.stream(values()).filter(p -> p.supported).map(p -> p.key).toList();
    }

    @Override
    public String toString() {
        return key;
    }
}
