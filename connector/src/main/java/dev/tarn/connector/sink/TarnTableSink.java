package dev.tarn.connector.sink;

import dev.tarn.format.Table;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
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
        return SinkV2Provider.of(
                new TarnSink(
                        table,
                        new TarnSink.CommitUser(
                                UUID.randomUUID().toString(), System.currentTimeMillis()),
                        spec));
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
