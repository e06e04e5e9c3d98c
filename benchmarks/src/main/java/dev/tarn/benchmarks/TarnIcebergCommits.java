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
        return new Target(table, table.newCommit("bench"));
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
        private long identifier;

        Target(Table table, TableCommit commit) {
            this.table = table;
            this.commit = commit;
        }

        @Override
        public Publish prepareAppend() throws Exception {
            long id = ++identifier;
            List<CommitMessage> messages = CommitLatencyBenchmark.oneFile(table, id);
            return () -> commit.commit(CommitRequest.of(id, messages));
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
            return () -> table.maintenance().publishCompaction(plan, rewritten);
        }

        @Override
        public void close() {}
    }
}
