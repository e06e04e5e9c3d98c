package dev.tarn.format.maintenance;

import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.deletion.DeletionVector;
import dev.tarn.format.iceberg.IcebergCommit;
import dev.tarn.format.manifest.BucketId;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.ManifestEntry.FileId;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.manifest.VectorChange;
import dev.tarn.format.schema.LsmOptions;
import dev.tarn.format.schema.TableSchema.TableKind;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.table.TableContext;
import dev.tarn.format.write.CommitMessage;
import dev.tarn.format.write.TableWrite;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.function.Predicate;
import javax.annotation.Nullable;
import org.apache.flink.configuration.Configuration;

/**
 * Compacts the buckets of a table, in three steps that a distributed job can run apart: {@link
 * #plan} lists the buckets of the latest snapshot that need it ({@link Unit}s); a {@link Compactor}
 * rewrites one (a primary-key bucket into one sorted run at the last level, tombstones and the rows
 * its deletion vectors delete dropped, without vectors; an append bucket's small files into files
 * of {@code target-file-size}), on any machine; {@link #publish} commits the results of all as one
 * COMPACT snapshot that changes no row and drops the inputs' vectors with them. A bucket that a
 * writer compacts, overwrites or deletes rows of meanwhile is left as that writer made it (the
 * commit drops its compaction), and the result says so and why.
 */
public final class FullCompaction {

    /**
     * One bucket to compact; the compaction reads the bucket as the latest snapshot has it then.
     *
     * @param files how many live files it had when planned
     * @param vectors the deletion vectors of its files in the snapshot planned on, by data file
     *     name (SPEC.md, "Deletion vectors"): the compaction reads each file with its vector
     *     applied, and its commit needs each to be still the file's
     */
    public record Unit(
            Partition partition, int bucket, int files, Map<String, DeletionFile> vectors)
            implements Serializable {
        public Unit {
            vectors = Map.copyOf(vectors);
        }
    }

    /**
     * What {@link #plan} found, and who will commit it.
     *
     * @param buckets the buckets with files in the selected partitions of the snapshot
     * @param units those that need compaction
     * @param commitUser the commit user of its one snapshot, so a committer that runs again after a
     *     failure finds it published
     * @param plannedMillis when it was planned; its snapshot is not older
     */
    public record Plan(
            long snapshotId, int buckets, List<Unit> units, String commitUser, long plannedMillis)
            implements Serializable {
        public Plan {
            units = List.copyOf(units);
        }

        /** This plan without its units, for a committer that only counts. */
        public Plan withoutUnits() {
            return new Plan(snapshotId, buckets, List.of(), commitUser, plannedMillis);
        }
    }

    /**
     * What a full compaction did.
     *
     * @param buckets the buckets with files in the snapshot it started from (in the partitions it
     *     was given)
     * @param compacted the buckets it rewrote (a bucket that is one run already, without deletion
     *     vectors, is left alone)
     * @param snapshotId the COMPACT snapshot it published, if any
     * @param dropped buckets it rewrote but left as they were, and why: writers rewrote them, or
     *     deleted rows of their files, meanwhile
     * @param files how many files the published compactions replaced with how many
     */
    public record Result(
            String table,
            int buckets,
            int compacted,
            OptionalLong snapshotId,
            Dropped dropped,
            Files files) {

        /** Files the published compactions deleted and added. */
        public record Files(int rewritten, int written) {}

        /**
         * The compactions the commit left out.
         *
         * @param reasons why, one per bucket, naming the file another commit changed
         */
        public record Dropped(int buckets, List<String> reasons) {

            /** Reasons shown in a summary at most; the count says how many more there are. */
            private static final int SHOWN = 3;

            public Dropped {
                reasons = List.copyOf(reasons);
            }

            /** The reasons for an operator: the first few, then how many more. */
            String text() {
                String shown =
                        String.join("; ", reasons.subList(0, Math.min(SHOWN, reasons.size())));
                return reasons.size() <= SHOWN
                        ? shown
                        : shown + "; and " + (reasons.size() - SHOWN) + " more";
            }
        }

        /** One line for an operator. */
        public String summary() {
            int left = dropped.buckets();
            if (snapshotId.isEmpty()) {
                return left == 0
                        ? "Table "
                                + table
                                + " is compacted already: "
                                + Counts.of(buckets, "bucket")
                        : String.format(
                                "Compacted no bucket of table %s: writers changed the %s it"
                                        + " compacted while it ran (%s); the table is unchanged,"
                                        + " call compact again",
                                table, Counts.of(left, "bucket"), dropped.text());
            }
            String line =
                    String.format(
                            "Compacted %s of table %s into snapshot %d (%s into %d)",
                            Counts.of(compacted - left, "bucket"),
                            table,
                            snapshotId.getAsLong(),
                            Counts.of(files.rewritten(), "file"),
                            files.written());
            return left == 0
                    ? line
                    : line
                            + String.format(
                                    "; %s changed by writers while it ran and left as %s (%s)",
                                    left == 1 ? "1 bucket was" : left + " buckets were",
                                    left == 1 ? "it was" : "they were",
                                    dropped.text());
        }
    }

    /** The commit identifier of a compaction's one snapshot (its commit user is its own). */
    private static final long IDENTIFIER = 1;

    private FullCompaction() {}

    /**
     * The buckets of {@code table}'s latest snapshot in the partitions {@code partitions} accepts
     * that need compaction: a primary-key bucket with a file below the last level, an append bucket
     * with two or more files smaller than {@code target-file-size}. Empty for a table without
     * snapshots.
     */
    public static Optional<Plan> plan(TableContext table, Predicate<Partition> partitions) {
        Optional<Snapshot> latest = table.snapshotReader().latest();
        if (latest.isEmpty()) {
            return Optional.empty();
        }
        int maxLevel = Configuration.fromMap(table.options()).get(LsmOptions.NUM_LEVELS) - 1;
        long target = table.config().sizes().targetFileSize();
        boolean primaryKey = table.kind() == TableKind.PRIMARY_KEY;
        // Only a primary-key compaction applies vectors; an append one keeps them, so the commit
        // drops it if its inputs have any.
        Map<BucketId, Map<String, DeletionFile>> vectors =
                primaryKey ? byBucket(table.snapshotReader().vectors(latest.get())) : Map.of();
        int buckets = 0;
        List<Unit> units = new ArrayList<>();
        for (Map.Entry<BucketId, List<ManifestEntry>> bucket :
                table.snapshotReader().filesByBucket(latest.get()).entrySet()) {
            if (!partitions.test(bucket.getKey().partition())) {
                continue;
            }
            buckets++;
            List<DataFile> files = bucket.getValue().stream().map(ManifestEntry::file).toList();
            Map<String, DeletionFile> own = vectors.getOrDefault(bucket.getKey(), Map.of());
            boolean needed =
                    primaryKey
                            ? !own.isEmpty() || files.stream().anyMatch(f -> f.level() < maxLevel)
                            : files.stream().filter(f -> f.fileSize() < target).count() >= 2;
            if (needed) {
                units.add(
                        new Unit(
                                bucket.getKey().partition(),
                                bucket.getKey().bucket(),
                                files.size(),
                                own));
            }
        }
        return Optional.of(
                new Plan(
                        latest.get().id(),
                        buckets,
                        units,
                        "compact-" + UUID.randomUUID(),
                        System.currentTimeMillis()));
    }

    private static Map<BucketId, Map<String, DeletionFile>> byBucket(
            Map<FileId, DeletionFile> vectors) {
        Map<BucketId, Map<String, DeletionFile>> byBucket = new HashMap<>();
        vectors.forEach(
                (file, vector) ->
                        byBucket.computeIfAbsent(
                                        new BucketId(file.partition(), file.bucket()),
                                        b -> new HashMap<>())
                                .put(file.fileName(), vector));
        return byBucket;
    }

    /**
     * Compacts every bucket of the table that needs it in the calling process and publishes the
     * result: the plan, compactions and publish a compaction job distributes, on one thread (for
     * embedding the format without Flink, and for tests). Empty for a table without snapshots.
     */
    public static Optional<Result> run(TableContext table) {
        Optional<Plan> plan = plan(table, partition -> true);
        if (plan.isEmpty()) {
            return Optional.empty();
        }
        List<CommitMessage> messages = new ArrayList<>();
        try (Compactor compactor = new Compactor(table)) {
            for (Unit unit : plan.get().units()) {
                messages.addAll(compactor.compact(unit));
            }
            return Optional.of(publish(table, plan.get(), messages));
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot compact table " + table.name() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Compacts buckets one after the other, sharing one table write: the table's files are read
     * once, when it compacts its first bucket (a bucket a writer changed since is dropped from the
     * commit, as any race), each file of a unit's bucket with the unit's vector of it applied.
     * Writes files, commits nothing; files of compactions not yet returned are deleted by {@link
     * #close}. Not thread-safe.
     */
    public static final class Compactor implements AutoCloseable {

        private final TableContext table;
        private final TableWrite write;

        /** The unit being compacted, whose bucket the write opens with its vectors. */
        @Nullable private Unit current;

        public Compactor(TableContext table) {
            this.table = table;
            this.write = new TableWrite(table, false, this::vectorsOf);
        }

        /**
         * Compacts one bucket.
         *
         * @return its compaction, for {@link #publish}, listing the vector of each input that had
         *     one as going (SPEC.md, "Commits with vectors"); empty if the bucket needs none any
         *     more
         * @throws IOException naming the index file if a vector of the unit cannot be read
         */
        public List<CommitMessage> compact(Unit unit) throws IOException {
            current = unit;
            try {
                write.compactFully(unit.partition(), unit.bucket());
                List<CommitMessage> messages = new ArrayList<>();
                for (CommitMessage m : write.prepareCommit(true)) {
                    messages.add(withInputVectors(m, unit.vectors()));
                }
                return messages;
            } finally {
                current = null;
            }
        }

        /** The vectors of the current unit's files, read when the write opens its bucket. */
        private Map<String, DeletionVector> vectorsOf(BucketId bucket) throws IOException {
            Unit unit = current;
            if (unit == null
                    || unit.bucket() != bucket.bucket()
                    || !unit.partition().equals(bucket.partition())) {
                return Map.of();
            }
            Map<String, DeletionVector> vectors = new HashMap<>();
            for (Map.Entry<String, DeletionFile> v : unit.vectors().entrySet()) {
                vectors.put(v.getKey(), table.indexFiles().read(v.getKey(), v.getValue()));
            }
            return vectors;
        }

        /**
         * {@code m} with the vector (in {@code planned}) of each of its inputs listed as going, if
         * it does not list a change of that file itself.
         */
        private static CommitMessage withInputVectors(
                CommitMessage m, Map<String, DeletionFile> planned) {
            List<VectorChange> changes = new ArrayList<>(m.vectors());
            for (DataFile input : m.deletedFiles()) {
                DeletionFile vector = planned.get(input.fileName());
                boolean listed =
                        m.vectors().stream().anyMatch(c -> c.dataFile().equals(input.fileName()));
                if (vector != null && !listed) {
                    changes.add(new VectorChange(input.fileName(), vector, null));
                }
            }
            return changes.size() == m.vectors().size() ? m : m.withVectors(changes);
        }

        @Override
        public void close() {
            write.close();
        }
    }

    /**
     * Publishes the compactions of {@code plan} as one COMPACT snapshot, through the commit's
     * conflict handling: a compaction whose input another writer replaced first is dropped, its
     * output deleted. Idempotent: a committer that runs again after a failure (a restarted task)
     * finds the plan's snapshot published and deletes nothing; its result then counts every
     * compaction as published.
     */
    public static Result publish(TableContext table, Plan plan, List<CommitMessage> messages) {
        TableCommit.Result result;
        try (TableCommit commit =
                new TableCommit(
                        table,
                        plan.commitUser(),
                        plan.plannedMillis(),
                        plan.snapshotId(),
                        IcebergCommit.hooks(table))) {
            result = commit.commit(CommitRequest.of(IDENTIFIER, messages));
        }
        List<CommitMessage> published = new ArrayList<>(messages);
        published.removeAll(result.droppedCompactions());
        int rewritten = 0;
        int written = 0;
        for (CommitMessage m : published) {
            rewritten += m.deletedFiles().size();
            written += m.newFiles().size();
        }
        int compacted = (int) messages.stream().filter(m -> !m.deletedFiles().isEmpty()).count();
        return new Result(
                table.name(),
                plan.buckets(),
                compacted,
                result.snapshotId(),
                new Result.Dropped(result.droppedCompactions().size(), result.dropReasons()),
                new Result.Files(rewritten, written));
    }
}
