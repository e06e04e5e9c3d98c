package dev.tarn.format.schema;

import java.util.Arrays;
import java.util.List;

/**
 * How the versions of one key of a primary-key table fold into the key's row ({@code
 * merge-engine}), and what that lets writers and readers do. The callers ask the engine what it
 * supports instead of comparing names; the folding itself is the LSM tree's merge functions.
 */
public enum MergeEngine {

    /** The newest version wins; a retraction wins as a tombstone. */
    DEDUPLICATE("deduplicate"),

    /** Each field keeps its newest non-null value; retractions are refused. */
    PARTIAL_UPDATE("partial-update"),

    /** Each field folds its versions with its aggregate function; retractions subtract. */
    AGGREGATION("aggregation"),

    /** The oldest version wins and never changes; retractions are ignored. */
    FIRST_ROW("first-row");

    private final String key;

    MergeEngine(String key) {
        this.key = key;
    }

    /** The value of {@code merge-engine} that selects this engine. */
    public String key() {
        return key;
    }

    /**
     * The engine the option value names, matched exactly.
     *
     * @throws IllegalArgumentException naming the value, the option, the table and the engines
     */
    public static MergeEngine fromOption(String table, String value) {
        for (MergeEngine engine : values()) {
            if (engine.key.equals(value)) {
                return engine;
            }
        }
        throw new IllegalArgumentException(
                String.format(
                        "Unknown merge engine '%s' (option '%s') of table %s; supported are %s",
                        value, LsmOptions.MERGE_ENGINE.key(), table, keys()));
    }

    /** The option values of all engines, in declaration order. */
    public static List<String> keys() {
        return Arrays.stream(values()).map(MergeEngine::key).toList();
    }

    /**
     * Whether a row-level DELETE applies: a tombstone removes the key's row only where the newest
     * version wins. Partial-update refuses retractions, aggregation would subtract the row's
     * values, first-row ignores them.
     */
    public boolean supportsDelete() {
        return this == DEDUPLICATE;
    }

    /**
     * Whether a row-level UPDATE applies: the updated row replaces the key's row (deduplicate) or
     * fills in its columns (partial-update). Aggregation would add the new values to the old ones,
     * first-row would keep the old row.
     */
    public boolean supportsUpdate() {
        return this == DEDUPLICATE || this == PARTIAL_UPDATE;
    }

    /**
     * Whether the engine needs every change of its input, UPDATE_BEFORE included: aggregation
     * subtracts the old values of an update before adding the new ones. The others replace or keep
     * a key's row by key, so a writer may take an upsert stream without UPDATE_BEFORE.
     */
    public boolean needsUpdateBefore() {
        return this == AGGREGATION;
    }

    /**
     * Whether the merged row is one whole version of the key as it was written (the newest, or the
     * oldest), so that merging needs only the key and the columns read; the other engines combine
     * fields of several versions and need every column.
     */
    public boolean picksWholeVersion() {
        return this == DEDUPLICATE || this == FIRST_ROW;
    }

    /**
     * Whether the newest version of a key written is the key's row from then on, so that the new
     * versions of a snapshot (or the writers' input) are the changes of its rows, as upserts and
     * deletes by key. The other engines fold a new version into the older ones.
     */
    public boolean newestVersionIsRow() {
        return this == DEDUPLICATE;
    }

    @Override
    public String toString() {
        return key;
    }
}
