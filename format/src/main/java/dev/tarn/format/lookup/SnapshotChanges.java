package dev.tarn.format.lookup;

import dev.tarn.format.manifest.BucketId;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.StreamScan;
import dev.tarn.format.schema.TableConfig;
import dev.tarn.format.schema.TableSchema.TableKind;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.table.TableContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * What one snapshot changes in the buckets a {@link TableLookup} holds: the splits whose rows are
 * the changes of rows, to apply in order, and the buckets to read anew. Where the changes come from
 * ({@link Source}) is chosen once from the table. An OVERWRITE, or any snapshot that deletes a file
 * of a bucket other than by compaction, replaces the bucket's rows: it is read anew. A COMPACT
 * snapshot changes no row; only its changelog files, if the table stores them, are read.
 */
final class SnapshotChanges {

    /** Where a table's changes of rows come from, if anywhere. */
    enum Source {
        /**
         * What a streaming read of the table gets: an append table's new rows, the changelog its
         * writers computed ({@code lookup}, {@code full-compaction}), or a key's newest version
         * where that is its row (deduplicate). The same condition as for following the table.
         */
        STREAM,
        /**
         * A primary-key table with deletion vectors whose engine folds versions: each new
         * vector-maintained file holds the whole current row of every key it changed (SPEC.md,
         * "Reads with vectors"), so each file, on its own and in order, is the changes of rows.
         */
        VECTOR_FILES,
        /** Partial-update or aggregation without either: every touched bucket is read anew. */
        NONE
    }

    /** A snapshot's changes: rows of splits to apply, by bucket, and buckets to read anew. */
    record Planned(Map<BucketId, List<Split>> rows, Set<BucketId> reload) {}

    private final TableContext context;
    @Nullable private final Predicate filter;
    final Source source;
    @Nullable private StreamScan stream;

    SnapshotChanges(TableContext context, @Nullable Predicate filter) {
        this.context = context;
        this.filter = filter;
        this.source = source(context);
    }

    private static Source source(TableContext table) {
        TableConfig config = table.config();
        if (table.kind() == TableKind.APPEND
                || config.stream().changelogProducer().computesRowChanges()
                || config.lsm().newestVersionIsRow()) {
            return Source.STREAM;
        }
        return config.lsm().deletionVectors() ? Source.VECTOR_FILES : Source.NONE;
    }

    /** The changes of {@code snapshot} in the buckets {@code holds} accepts. */
    Planned plan(Snapshot snapshot, java.util.function.Predicate<BucketId> holds) {
        Set<BucketId> reload = new HashSet<>();
        Map<BucketId, List<Split>> rows = new LinkedHashMap<>();
        Snapshot.CommitKind kind = snapshot.commit().kind();
        if (kind != Snapshot.CommitKind.COMPACT) {
            for (ManifestEntry e : context.snapshotReader().delta(snapshot).entries()) {
                if (!holds.test(e.bucketId())) {
                    continue;
                }
                boolean replaces =
                        kind == Snapshot.CommitKind.OVERWRITE
                                || e.kind() == ManifestEntry.FileKind.DELETE
                                || source == Source.NONE
                                || (source == Source.VECTOR_FILES
                                        && !context.vectorMaintained(e.file()));
                if (replaces) {
                    reload.add(e.bucketId());
                } else if (source == Source.VECTOR_FILES) {
                    rows.computeIfAbsent(e.bucketId(), b -> new ArrayList<>())
                            .add(
                                    new Split(
                                            snapshot.id(),
                                            e.partition(),
                                            e.bucket(),
                                            e.totalBuckets(),
                                            List.of(e.file()),
                                            Split.Kind.DELTA));
                }
            }
        }
        if (source == Source.STREAM && kind != Snapshot.CommitKind.OVERWRITE) {
            if (stream == null) {
                stream = new StreamScan(context, filter);
            }
            for (Split split :
                    stream.changes(snapshot.id())
                            .map(StreamScan.Changes::splits)
                            .orElse(List.of())) {
                BucketId id = new BucketId(split.partition(), split.bucket());
                if (holds.test(id)) {
                    rows.computeIfAbsent(id, b -> new ArrayList<>()).add(split);
                }
            }
        }
        reload.forEach(rows::remove);
        return new Planned(rows, reload);
    }
}
