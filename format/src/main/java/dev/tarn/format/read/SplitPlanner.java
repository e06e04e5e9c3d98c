package dev.tarn.format.read;

import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.table.TableContext;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;

/**
 * How one kind of table turns a bucket's live files into splits, and which part of a filter may
 * rule files out. Chosen once per scan by {@link #of}.
 */
interface SplitPlanner {

    /** The part of {@code filter} that may skip files, row groups and pages. */
    @Nullable
    Predicate pruningFilter(@Nullable Predicate filter);

    /**
     * The splits of one bucket's files (all of one partition and bucket, in manifest order), read
     * as {@code kind}.
     */
    List<Split> split(Snapshot snapshot, List<ManifestEntry> bucketFiles, Split.Kind kind);

    static SplitPlanner of(TableContext table) {
        return switch (table.kind()) {
            case APPEND -> new PackingPlanner(table.config().sizes().splitTargetSize());
            case PRIMARY_KEY -> new MergeTreePlanner(table.schema());
        };
    }

    private static Split splitOf(
            Snapshot snapshot, ManifestEntry first, List<DataFile> files, Split.Kind kind) {
        return new Split(
                snapshot.id(),
                first.partition(),
                first.bucket(),
                first.totalBuckets(),
                files,
                kind);
    }

    /** Append tables: every row of a file is live, so files pack into splits of a target size. */
    record PackingPlanner(long targetSize) implements SplitPlanner {

        @Override
        public Predicate pruningFilter(@Nullable Predicate filter) {
            return filter;
        }

        @Override
        public List<Split> split(
                Snapshot snapshot, List<ManifestEntry> bucketFiles, Split.Kind kind) {
            ManifestEntry first = bucketFiles.get(0);
            List<Split> splits = new ArrayList<>();
            List<DataFile> pack = new ArrayList<>();
            long packSize = 0;
            for (ManifestEntry e : bucketFiles) {
                if (!pack.isEmpty() && packSize + e.file().fileSize() > targetSize) {
                    splits.add(SplitPlanner.splitOf(snapshot, first, pack, kind));
                    pack = new ArrayList<>();
                    packSize = 0;
                }
                pack.add(e.file());
                packSize += e.file().fileSize();
            }
            splits.add(SplitPlanner.splitOf(snapshot, first, pack, kind));
            return splits;
        }
    }

    /**
     * Primary-key tables: a bucket's files are merged on read, so each bucket is one split, and
     * only key columns may rule a file out (a file holds versions of keys).
     */
    record MergeTreePlanner(TableSchema schema) implements SplitPlanner {

        @Override
        public Predicate pruningFilter(@Nullable Predicate filter) {
            return Predicate.onlyFields(filter, schema.fieldIndexes(schema.primaryKeys()));
        }

        @Override
        public List<Split> split(
                Snapshot snapshot, List<ManifestEntry> bucketFiles, Split.Kind kind) {
            return List.of(
                    SplitPlanner.splitOf(
                            snapshot,
                            bucketFiles.get(0),
                            bucketFiles.stream().map(ManifestEntry::file).toList(),
                            kind));
        }
    }
}
