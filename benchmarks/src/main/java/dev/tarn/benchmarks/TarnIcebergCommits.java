package dev.tarn.benchmarks;

import dev.tarn.format.Table;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.maintenance.FullCompaction;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.write.CommitMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * Tarn in the Iceberg commit-cost benchmark: an append table {@code (id BIGINT, v STRING)} written
 * and committed through the format's seams, compacted through its maintenance package, as {@link
 * CommitLatencyBenchmark} and {@link S3CommitBenchmark} do.
 */
final class TarnIcebergCommits implements IcebergCommitTarget.Factory {

    static final String OPTION = "metadata.iceberg.storage";

    @Override
    public String name() {
        return "tarn";
    }

    @Override
    public IcebergCommitTarget open(java.nio.file.Path directory, boolean iceberg)
            throws IcebergCommitTarget.OptionNotAvailableException {
        Table table = create(directory, iceberg);
        return new Target(table, table.newCommit("bench"), null);
    }

    /** Tarn's commits measured again, under another name, on new tables. */
    static final class Again implements IcebergCommitTarget.Factory {
        private final String name;
        private final TarnIcebergCommits tarn = new TarnIcebergCommits();

        Again(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public IcebergCommitTarget open(java.nio.file.Path directory, boolean iceberg)
                throws IcebergCommitTarget.OptionNotAvailableException {
            return tarn.open(directory, iceberg);
        }
    }

    /**
     * The floor of what Iceberg metadata can cost a commit on this file system: a table without the
     * option whose commits, when "on", are each followed by the file writes alone of an Iceberg
     * step, with nothing encoded. Per snapshot, the files Iceberg's spec needs and Iceberg's own
     * file-system tables write: a manifest and a manifest list, each written straight under its
     * name; the version file, written aside and renamed onto {@code v<N>.metadata.json}; and {@code
     * version-hint.text}, written aside and renamed onto its name. Each of the sizes Tarn's own
     * Iceberg files had for the same snapshot in {@code reference}, the table with the option that
     * the benchmark committed the same way just before.
     */
    static final class FileFloor implements IcebergCommitTarget.Factory {
        private final java.nio.file.Path reference;

        /**
         * @param reference the directory of a Tarn table with the option, committed as this one
         *     will be
         */
        FileFloor(java.nio.file.Path reference) {
            this.reference = reference;
        }

        @Override
        public String name() {
            return "floor";
        }

        @Override
        public IcebergCommitTarget open(java.nio.file.Path directory, boolean iceberg)
                throws Exception {
            Table table = create(directory, false);
            return new Target(
                    table,
                    table.newCommit("bench"),
                    iceberg ? new FloorFiles(directory.resolve("metadata"), reference) : null);
        }
    }

    /** The file writes of an Iceberg step, sized as {@code reference}'s. */
    static final class FloorFiles {
        private final java.nio.file.Path directory;
        private final Map<Long, Long> versionSizes = new java.util.HashMap<>();
        private final Map<Long, Long> listSizes = new java.util.HashMap<>();
        private final long manifestSize;
        private final byte[] bytes;

        FloorFiles(java.nio.file.Path directory, java.nio.file.Path reference)
                throws java.io.IOException {
            this.directory = java.nio.file.Files.createDirectories(directory);
            List<Long> manifests = new ArrayList<>();
            try (var files = java.nio.file.Files.list(reference.resolve("metadata"))) {
                for (java.nio.file.Path file : (Iterable<java.nio.file.Path>) files::iterator) {
                    String name = file.getFileName().toString();
                    long size = java.nio.file.Files.size(file);
                    if (name.startsWith("v") && name.endsWith(".metadata.json")) {
                        versionSizes.put(
                                Long.parseLong(
                                        name.substring(
                                                1, name.length() - ".metadata.json".length())),
                                size);
                    } else if (name.startsWith("snap-")) {
                        listSizes.put(Long.parseLong(name.split("-")[1]), size);
                    } else if (name.endsWith("-m0.avro")) {
                        manifests.add(size);
                    }
                }
            }
            if (versionSizes.isEmpty() || listSizes.isEmpty() || manifests.isEmpty()) {
                throw new IllegalStateException(
                        "The floor of the Iceberg step needs the Iceberg files of a Tarn table with"
                                + " the option in "
                                + reference
                                + ", found none");
            }
            java.util.Collections.sort(manifests);
            this.manifestSize = manifests.get(manifests.size() / 2);
            long largest =
                    Math.max(
                            manifestSize,
                            Math.max(
                                    java.util.Collections.max(versionSizes.values()),
                                    java.util.Collections.max(listSizes.values())));
            this.bytes = new byte[Math.toIntExact(largest)];
            new java.util.Random(1).nextBytes(bytes);
        }

        /** The sizes for snapshot {@code id}: manifest, list, version (the nearest earlier). */
        long[] sizes(long id) {
            return new long[] {manifestSize, nearest(listSizes, id), nearest(versionSizes, id)};
        }

        private static long nearest(Map<Long, Long> sizes, long id) {
            for (long i = id; i > 0; i--) {
                Long size = sizes.get(i);
                if (size != null) {
                    return size;
                }
            }
            return sizes.values().iterator().next();
        }

        void write(long id, long[] sizes) throws java.io.IOException {
            write(directory.resolve("floor-" + id + "-m0.avro"), sizes[0]);
            write(directory.resolve("snap-" + id + "-floor.avro"), sizes[1]);
            java.nio.file.Path version = directory.resolve(".v" + id + ".metadata.json.tmp");
            write(version, sizes[2]);
            java.nio.file.Files.move(
                    version,
                    directory.resolve("v" + id + ".metadata.json"),
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            java.nio.file.Path hint = directory.resolve(".version-hint.text.tmp");
            java.nio.file.Files.write(
                    hint, Long.toString(id).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            java.nio.file.Files.move(
                    hint,
                    directory.resolve("version-hint.text"),
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }

        private void write(java.nio.file.Path file, long size) throws java.io.IOException {
            try (var out = java.nio.file.Files.newOutputStream(file)) {
                out.write(bytes, 0, (int) size);
            }
        }
    }

    /**
     * A new append table {@code (id BIGINT, v STRING)} in {@code directory}, with or without
     * Iceberg metadata.
     *
     * @throws IcebergCommitTarget.OptionNotAvailableException if the table refuses the option
     */
    static Table create(java.nio.file.Path directory, boolean iceberg)
            throws IcebergCommitTarget.OptionNotAvailableException {
        RowType type =
                RowType.of(
                        new LogicalType[] {new BigIntType(), VarCharType.STRING_TYPE},
                        new String[] {"id", "v"});
        // Off is the option's default: no option at all, so that it runs where the option is
        // unknown.
        Map<String, String> options = iceberg ? Map.of(OPTION, "table-location") : Map.of();
        Table table;
        try {
            table =
                    Table.create(
                            FileIO.flinkFileSystems(),
                            new Path(directory.toUri()),
                            "bench.iceberg_commits",
                            TableSchema.create(type, List.of(), List.of(), options, null));
        } catch (IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().contains("'" + OPTION + "'")) {
                throw new IcebergCommitTarget.OptionNotAvailableException(e.getMessage(), e);
            }
            throw e;
        }
        return table;
    }

    private static final class Target implements IcebergCommitTarget {
        private final Table table;
        private final TableCommit commit;
        @Nullable private final FloorFiles floor;
        private long identifier;
        private long snapshots;

        Target(Table table, TableCommit commit, @Nullable FloorFiles floor) {
            this.table = table;
            this.commit = commit;
            this.floor = floor;
        }

        @Override
        public Publish prepareAppend() throws Exception {
            long id = ++identifier;
            List<CommitMessage> messages = CommitLatencyBenchmark.oneFile(table, id);
            return withFloor(() -> commit.commit(CommitRequest.of(id, messages)));
        }

        /** {@code publish}, then the floor's file writes for the snapshot it makes, if any. */
        private Publish withFloor(Publish publish) {
            long snapshot = ++snapshots;
            if (floor == null) {
                return publish;
            }
            long[] sizes = floor.sizes(snapshot);
            return () -> {
                publish.run();
                floor.write(snapshot, sizes);
            };
        }

        @Override
        public Publish prepareCompaction() throws Exception {
            FullCompaction.Plan plan =
                    table.maintenance().planFullCompaction(p -> true).orElseThrow();
            List<CommitMessage> rewritten = new ArrayList<>();
            try (FullCompaction.Compactor compactor = table.maintenance().newCompactor()) {
                for (FullCompaction.Unit unit : plan.units()) {
                    rewritten.addAll(compactor.compact(unit));
                }
            }
            return withFloor(() -> table.maintenance().publishCompaction(plan, rewritten));
        }

        @Override
        public void close() {}
    }
}
