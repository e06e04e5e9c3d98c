package dev.tarn.format.read;

import dev.tarn.format.bucket.FilePruning;
import dev.tarn.format.manifest.BucketId;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.FileContent;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.schema.TableSchema.TableKind;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.table.TableContext;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * Turns files of a snapshot into splits the way the table's kind reads them ({@link SplitPlanner}),
 * bucket by bucket in the order the buckets first appear, skipping the files the filter rules out.
 * The one place both the batch scan and the streaming scan plan through.
 *
 * <p>A snapshot's current rows ({@link #current}) carry the deletion vectors of their files. There,
 * a primary-key bucket whose live files are all vector-maintained ({@link
 * TableContext#vectorMaintained}) is planned as an append table's bucket is: files packed into
 * splits read file by file ({@link Split.Kind#SNAPSHOT_BY_FILE}), pruned by the whole filter, as
 * each key has one live row in it. Any other bucket is one split merged on read, pruned by the key
 * columns only.
 *
 * <p>Each plan counts into a {@link ScanTally} the files it considers and those the filter skips,
 * where it decides.
 */
final class BucketSplits {

    private final TableContext table;
    private final SplitPlanner planner;
    private final FilePruning pruning;

    /** How buckets read file by file are planned and pruned; null for an append table. */
    @Nullable private final SplitPlanner byFile;

    @Nullable private final FilePruning byFilePruning;

    BucketSplits(TableContext table, @Nullable Predicate filter) {
        this.table = table;
        this.planner = SplitPlanner.of(table);
        this.pruning = pruning(table, planner.pruningFilter(filter));
        if (table.kind() == TableKind.PRIMARY_KEY) {
            this.byFile = new SplitPlanner.PackingPlanner(table.config().sizes().splitTargetSize());
            this.byFilePruning = pruning(table, filter);
        } else {
            this.byFile = null;
            this.byFilePruning = null;
        }
    }

    private static FilePruning pruning(TableContext table, @Nullable Predicate filter) {
        return FilePruning.of(table.schema(), table::schema, table.config().bucket(), filter);
    }

    /**
     * The splits of a snapshot's current rows ({@link Split.Kind#SNAPSHOT}, or {@link
     * Split.Kind#SNAPSHOT_BY_FILE} where a bucket allows it), each with its files' vectors.
     *
     * @param byBucket the snapshot's live files (or some of them), grouped by bucket
     * @param vectors the snapshot's deletion vectors
     * @param byFile whether a bucket may be read file by file; false merges every bucket (a read
     *     that needs each bucket's rows in key order)
     * @param tally counts the files kept and skipped
     */
    List<Split> current(
            Snapshot snapshot,
            Map<BucketId, List<ManifestEntry>> byBucket,
            Map<ManifestEntry.FileId, DeletionFile> vectors,
            boolean byFile,
            ScanTally tally) {
        List<Split> splits = new ArrayList<>();
        for (List<ManifestEntry> files : byBucket.values()) {
            boolean unmerged =
                    byFile
                            && this.byFile != null
                            && files.stream().allMatch(e -> table.vectorMaintained(e.file()));
            List<Split> planned =
                    unmerged
                            ? plan(
                                    snapshot,
                                    files,
                                    Split.Kind.SNAPSHOT_BY_FILE,
                                    this.byFile,
                                    byFilePruning,
                                    tally)
                            : plan(snapshot, files, Split.Kind.SNAPSHOT, planner, pruning, tally);
            for (Split split : planned) {
                splits.add(vectors.isEmpty() ? split : withVectors(split, vectors));
            }
        }
        return splits;
    }

    private static Split withVectors(Split split, Map<ManifestEntry.FileId, DeletionFile> vectors) {
        Map<String, DeletionFile> own = new HashMap<>();
        for (DataFile f : split.files()) {
            DeletionFile vector =
                    vectors.get(
                            new ManifestEntry.FileId(
                                    split.partition(), split.bucket(), f.fileName()));
            if (vector != null) {
                own.put(f.fileName(), vector);
            }
        }
        return own.isEmpty() ? split : split.withVectors(own);
    }

    /**
     * The splits of files grouped by bucket, each group in the order its files were added, read as
     * {@code kind}: a snapshot's changes, without deletion vectors.
     */
    List<Split> of(
            Snapshot snapshot,
            Map<BucketId, List<ManifestEntry>> byBucket,
            Split.Kind kind,
            ScanTally tally) {
        List<Split> splits = new ArrayList<>();
        for (List<ManifestEntry> files : byBucket.values()) {
            splits.addAll(plan(snapshot, files, kind, planner, pruning, tally));
        }
        return splits;
    }

    /** As {@link #of(Snapshot, Map, Split.Kind, ScanTally)}, grouping by bucket first. */
    List<Split> of(
            Snapshot snapshot,
            Collection<ManifestEntry> entries,
            Split.Kind kind,
            ScanTally tally) {
        Map<BucketId, List<ManifestEntry>> byBucket = new LinkedHashMap<>();
        for (ManifestEntry e : entries) {
            byBucket.computeIfAbsent(e.bucketId(), b -> new ArrayList<>()).add(e);
        }
        return of(snapshot, byBucket, kind, tally);
    }

    /**
     * The splits of one bucket's files that {@code pruning} keeps, as {@code planner} packs them.
     */
    private static List<Split> plan(
            Snapshot snapshot,
            List<ManifestEntry> files,
            Split.Kind kind,
            SplitPlanner planner,
            FilePruning pruning,
            ScanTally tally) {
        List<ManifestEntry> kept = new ArrayList<>();
        for (ManifestEntry e : files) {
            if (pruning.mayMatch(e)) {
                kept.add(e);
            }
        }
        if (!kept.isEmpty()
                && files.stream().anyMatch(e -> e.file().content() == FileContent.BEFORE_IMAGES)) {
            // A flush's before-images and new rows pair one for one: all or none.
            kept = files;
        }
        tally.files(files.size(), kept.size());
        return kept.isEmpty() ? List.of() : planner.split(snapshot, kept, kind);
    }
}
