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
        return target(table, null);
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
     * A target over {@code table}, whose commits are each followed by {@code floor}'s file writes
     * for the snapshot they make, if not null.
     */
    static IcebergCommitTarget target(Table table, @Nullable IcebergFileFloor.Writes floor) {
        return new Target(table, table.newCommit("bench"), floor);
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
        @Nullable private final IcebergFileFloor.Writes floor;
        private long identifier;
        private long snapshots;

        Target(Table table, TableCommit commit, @Nullable IcebergFileFloor.Writes floor) {
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
