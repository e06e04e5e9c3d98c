package dev.tarn.format.lsm.tree;

import javax.annotation.Nullable;

/**
 * What a bucket's writer stores as changelog files for streaming reads (SPEC.md, "Changelog
 * files"), chosen once per table write from its {@code changelog-producer}.
 *
 * @param kind what the writer stores
 * @param lookupMemory with {@link Kind#LOOKUP}, and only then: the memory the lookup indexes of the
 *     table write's buckets share
 */
record ChangelogSetup(Kind kind, @Nullable LookupMemory lookupMemory) {

    /** Which changes a writer stores. */
    enum Kind {
        /** None: the table's changelog producer stores nothing. */
        NONE,
        /** Every input change as it comes ({@code input}). */
        ALL,
        /** Every input change but retractions, which the table ignores ({@code ignore-delete}). */
        WITHOUT_RETRACTIONS,
        /**
         * The changes of the rows, looked up at each flush ({@code lookup}, {@link
         * LookupChangelog}).
         */
        LOOKUP,
        /**
         * The changes of the rows of the last level, written by each compaction to it ({@code
         * full-compaction}, {@link FullCompactionChangelog}).
         */
        FULL_COMPACTION
    }

    static final ChangelogSetup NONE = new ChangelogSetup(Kind.NONE, null);

    static final ChangelogSetup FULL_COMPACTION = new ChangelogSetup(Kind.FULL_COMPACTION, null);

    ChangelogSetup {
        if ((kind == Kind.LOOKUP) != (lookupMemory != null)) {
            throw new IllegalArgumentException(
                    "A lookup changelog, and only it, needs lookup memory; got "
                            + kind
                            + " with "
                            + lookupMemory);
        }
    }

    static ChangelogSetup lookup(long memoryBytes) {
        return new ChangelogSetup(Kind.LOOKUP, new LookupMemory(memoryBytes));
    }

    /** Whether the writer stores its input changes as they come. */
    boolean storesInput() {
        return kind == Kind.ALL || kind == Kind.WITHOUT_RETRACTIONS;
    }
}
