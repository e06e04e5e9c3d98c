package dev.tarn.format.lsm.tree;

import dev.tarn.format.lsm.KeyValueSchema;
import dev.tarn.format.lsm.lookup.BucketVectors;
import dev.tarn.format.lsm.lookup.LookupChangelog;
import dev.tarn.format.lsm.lookup.LookupMemory;
import dev.tarn.format.lsm.merge.MergeFunction;
import dev.tarn.format.lsm.run.BucketTreeReader;
import dev.tarn.format.lsm.run.KeyValueFileWriter;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.FileContent;
import java.util.List;
import java.util.function.Supplier;
import javax.annotation.Nullable;

/**
 * What a bucket's writer stores as changelog files for streaming reads (SPEC.md, "Changelog
 * files"), chosen once per table write from its {@code changelog-producer}.
 *
 * @param kind what the writer stores
 * @param lookupMemory with {@link Kind#LOOKUP}, and only then: the memory the lookup indexes of the
 *     table write's buckets share
 * @param beforeImages with {@link Kind#LOOKUP}: a flush stores the previous rows of the keys it
 *     changes alone, as before-image files, its level-0 files holding their new rows (SPEC.md,
 *     "Changelog files"); for the deduplicate engine ordered by sequence number, whose new versions
 *     are the new rows, in writes whose level-0 files the commit publishes (not an overwrite's)
 */
record ChangelogSetup(Kind kind, @Nullable LookupMemory lookupMemory, boolean beforeImages) {

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
         * full-compaction}, {@code FullCompactionChangelog}).
         */
        FULL_COMPACTION
    }

    static final ChangelogSetup NONE = new ChangelogSetup(Kind.NONE, null, false);

    static final ChangelogSetup FULL_COMPACTION =
            new ChangelogSetup(Kind.FULL_COMPACTION, null, false);

    ChangelogSetup {
        if ((kind == Kind.LOOKUP) != (lookupMemory != null)) {
            throw new IllegalArgumentException(
                    "A lookup changelog, and only it, needs lookup memory; got "
                            + kind
                            + " with "
                            + lookupMemory);
        }
        if (beforeImages && kind != Kind.LOOKUP) {
            throw new IllegalArgumentException("Only a lookup changelog stores before-images");
        }
    }

    /** Full changelog rows, looked up at each flush. */
    static ChangelogSetup lookup(long memoryBytes) {
        return lookup(memoryBytes, false);
    }

    static ChangelogSetup lookup(long memoryBytes, boolean beforeImages) {
        return new ChangelogSetup(Kind.LOOKUP, new LookupMemory(memoryBytes), beforeImages);
    }

    /** Whether the writer stores its input changes as they come. */
    boolean storesInput() {
        return kind == Kind.ALL || kind == Kind.WITHOUT_RETRACTIONS;
    }

    /**
     * The lookup of one bucket's writer in a table with deletion vectors, which every changelog
     * producer needs (each key's location); it writes changelog files only under this setup's
     * {@link Kind#LOOKUP}, full ones (the flush's files hold the new rows whole, no before-images
     * are needed).
     */
    LookupChangelog newVectorLookup(
            KeyValueSchema schema,
            Supplier<MergeFunction> merges,
            BucketTreeReader.ColumnOpener opener,
            Supplier<List<DataFile>> treeFiles,
            KeyValueFileWriter.Target target,
            LookupMemory memory,
            BucketVectors vectors) {
        return new LookupChangelog(
                schema,
                merges,
                opener,
                treeFiles,
                kind == Kind.LOOKUP
                        ? new KeyValueFileWriter(target.forChangelog(), 0, FileContent.CHANGELOG)
                        : null,
                null,
                memory,
                vectors);
    }

    /**
     * The lookup changelog of one bucket's writer, writing its changelog (and before-image) files
     * to {@code target}; null unless this setup is {@link Kind#LOOKUP}.
     */
    @Nullable
    LookupChangelog newLookup(
            KeyValueSchema schema,
            Supplier<MergeFunction> merges,
            BucketTreeReader.ColumnOpener opener,
            Supplier<List<DataFile>> treeFiles,
            KeyValueFileWriter.Target target) {
        if (kind != Kind.LOOKUP) {
            return null;
        }
        return new LookupChangelog(
                schema,
                merges,
                opener,
                treeFiles,
                new KeyValueFileWriter(target.forChangelog(), 0, FileContent.CHANGELOG),
                beforeImages
                        ? new KeyValueFileWriter(
                                target.forChangelog(), 0, FileContent.BEFORE_IMAGES)
                        : null,
                lookupMemory);
    }
}
