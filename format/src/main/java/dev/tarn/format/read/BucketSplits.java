package dev.tarn.format.read;

import dev.tarn.format.bucket.FilePruning;
import dev.tarn.format.manifest.BucketId;
import dev.tarn.format.manifest.FileContent;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.table.TableContext;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * Turns files of a snapshot into splits the way the table's kind reads them ({@link SplitPlanner}),
 * bucket by bucket in the order the buckets first appear, skipping the files the filter rules out.
 * The one place both the batch scan and the streaming scan plan through.
 */
final class BucketSplits {

    private final SplitPlanner planner;
    private final FilePruning pruning;

    BucketSplits(TableContext table, @Nullable Predicate filter) {
        this.planner = SplitPlanner.of(table);
        this.pruning =
                FilePruning.of(
                        table.schema(),
                        table::schema,
                        table.config().bucket(),
                        planner.pruningFilter(filter));
    }

    /** The splits of files grouped by bucket, each group in the order its files were added. */
    List<Split> of(
            Snapshot snapshot, Map<BucketId, List<ManifestEntry>> byBucket, Split.Kind kind) {
        List<Split> splits = new ArrayList<>();
        for (List<ManifestEntry> files : byBucket.values()) {
            List<ManifestEntry> kept = new ArrayList<>();
            for (ManifestEntry e : files) {
                if (pruning.mayMatch(e)) {
                    kept.add(e);
                }
            }
            if (!kept.isEmpty()
                    && files.stream()
                            .anyMatch(e -> e.file().content() == FileContent.BEFORE_IMAGES)) {
                // A flush's before-images and new rows pair one for one: all or none.
                kept = files;
            }
            if (!kept.isEmpty()) {
                splits.addAll(planner.split(snapshot, kept, kind));
            }
        }
        return splits;
    }

    /** As {@link #of(Snapshot, Map, Split.Kind)}, grouping {@code entries} by bucket first. */
    List<Split> of(Snapshot snapshot, Collection<ManifestEntry> entries, Split.Kind kind) {
        Map<BucketId, List<ManifestEntry>> byBucket = new LinkedHashMap<>();
        for (ManifestEntry e : entries) {
            byBucket.computeIfAbsent(e.bucketId(), b -> new ArrayList<>()).add(e);
        }
        return of(snapshot, byBucket, kind);
    }
}
