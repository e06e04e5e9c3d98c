package dev.tarn.catalog.compact;

import dev.tarn.format.Table;
import dev.tarn.format.maintenance.FullCompaction;
import java.util.List;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;

/**
 * The Flink job behind {@code CALL sys.compact}: compacts the buckets a {@link FullCompaction.Plan}
 * lists, spread over the job's parallel tasks, and publishes all results as one COMPACT snapshot.
 * Topology:
 *
 * <pre>
 *   [unit numbers 0..n-1] --> [compact unit 0..p-1] --commit messages--> [committer, 1] --> summary
 *    bounded sequence          rewrites a bucket, as         publishes one snapshot
 *    source                    the latest snapshot has it    at the end of its input
 * </pre>
 *
 * The units travel with the compacting function; only their numbers flow through the source. The
 * job keeps no state: a failover runs it again from the start, and a compaction that finds its
 * bucket compacted already writes nothing.
 */
public final class CompactJob {

    private CompactJob() {}

    /**
     * Runs the job on {@code env} and waits for it.
     *
     * @return the committer's one-line summary
     */
    public static String run(StreamExecutionEnvironment env, Table table, FullCompaction.Plan plan)
            throws Exception {
        List<FullCompaction.Unit> units = plan.units();
        if (units.isEmpty()) {
            return table.maintenance().publishCompaction(plan, List.of()).summary();
        }
        int parallelism = Math.max(1, Math.min(units.size(), env.getParallelism()));
        FullCompaction.Plan header = plan.withoutUnits();
        DataStream<String> summary =
                env.fromSequence(0, units.size() - 1)
                        .name("Tarn compaction units of " + table.name())
                        .setParallelism(parallelism)
                        .flatMap(new CompactUnitFunction(table, units))
                        .returns(PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO)
                        .name("Tarn compact buckets of " + table.name())
                        .setParallelism(parallelism)
                        .transform(
                                "Tarn compaction committer of " + table.name(),
                                Types.STRING,
                                new CompactCommitOperator(table, header))
                        .setParallelism(1)
                        .setMaxParallelism(1);
        try (CloseableIterator<String> result =
                summary.executeAndCollect("Compact table " + table.name())) {
            if (!result.hasNext()) {
                throw new IllegalStateException(
                        "The compaction job of table " + table.name() + " ended without a result");
            }
            return result.next();
        }
    }
}
