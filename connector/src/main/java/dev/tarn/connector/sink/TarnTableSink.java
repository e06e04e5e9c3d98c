package dev.tarn.connector.sink;

import dev.tarn.format.Table;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DataStreamSinkProvider;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.abilities.SupportsOverwrite;
import org.apache.flink.table.connector.sink.abilities.SupportsPartitioning;

/** The planner's view of a Tarn table as a sink: inserts, with INSERT OVERWRITE. */
public final class TarnTableSink
        implements DynamicTableSink, SupportsOverwrite, SupportsPartitioning {

    private final Table table;
    private boolean overwrite;
    private Map<String, String> staticPartition = new LinkedHashMap<>();

    public TarnTableSink(Table table) {
        this.table = table;
    }

    @Override
    public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
        return ChangelogMode.insertOnly();
    }

    @Override
    public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
        OverwriteSpec spec = null;
        if (overwrite) {
            boolean allStatic =
                    staticPartition.keySet().containsAll(table.schema().partitionKeys());
            spec =
                    new OverwriteSpec(
                            staticPartition,
                            !allStatic && table.config().commit().dynamicPartitionOverwrite());
        }
        // One commit user per planned job: stable across restarts, since it is part of the plan.
        TarnSink sink =
                new TarnSink(
                        table,
                        new CommitUser(UUID.randomUUID().toString(), System.currentTimeMillis()),
                        spec);
        boolean bounded = context.isBounded();
        return (DataStreamSinkProvider)
                (providerContext, rows) -> {
                    requireCheckpointing(rows.getExecutionEnvironment(), bounded);
                    return rows.sinkTo(sink).name("Tarn(" + table.name() + ")");
                };
    }

    /**
     * An unbounded input publishes only at completed checkpoints: without checkpointing its rows
     * would never become visible, so the job is refused before it starts.
     */
    private void requireCheckpointing(StreamExecutionEnvironment env, boolean bounded) {
        boolean streaming =
                env.getConfiguration().get(ExecutionOptions.RUNTIME_MODE)
                        != RuntimeExecutionMode.BATCH;
        if (streaming && !bounded && !env.getCheckpointConfig().isCheckpointingEnabled()) {
            throw new ValidationException(
                    "Cannot write to Tarn table "
                            + table.name()
                            + " from an unbounded streaming query without checkpointing: rows"
                            + " are committed when a checkpoint completes. Enable it, e.g. SET"
                            + " 'execution.checkpointing.interval' = '10s';");
        }
    }

    @Override
    public void applyOverwrite(boolean overwrite) {
        this.overwrite = overwrite;
    }

    @Override
    public void applyStaticPartition(Map<String, String> partition) {
        this.staticPartition = new LinkedHashMap<>(partition);
    }

    @Override
    public DynamicTableSink copy() {
        TarnTableSink copy = new TarnTableSink(table);
        copy.overwrite = overwrite;
        copy.staticPartition = new LinkedHashMap<>(staticPartition);
        return copy;
    }

    @Override
    public String asSummaryString() {
        return "Tarn(" + table.name() + ")";
    }
}
