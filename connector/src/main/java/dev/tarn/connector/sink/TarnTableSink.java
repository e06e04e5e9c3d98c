package dev.tarn.connector.sink;

import dev.tarn.format.Table;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.schema.MergeEngine;
import dev.tarn.format.schema.TableSchema.TableKind;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import javax.annotation.Nullable;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.RowLevelModificationScanContext;
import org.apache.flink.table.connector.sink.DataStreamSinkProvider;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.abilities.SupportsOverwrite;
import org.apache.flink.table.connector.sink.abilities.SupportsPartitioning;
import org.apache.flink.table.connector.sink.abilities.SupportsRowLevelDelete;
import org.apache.flink.table.connector.sink.abilities.SupportsRowLevelUpdate;
import org.apache.flink.table.connector.sink.abilities.SupportsTruncate;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;

/**
 * The planner's view of a Tarn table as a sink: inserts into an append table; inserts, updates and
 * deletes into a primary-key table (an upsert stream, or a full changelog for the aggregation
 * engine, whose retractions subtract), including batch {@code DELETE} and {@code UPDATE}
 * statements; INSERT OVERWRITE and TRUNCATE TABLE on both. Rows of a primary-key table are routed
 * by bucket so each bucket has one writer.
 */
public final class TarnTableSink
        implements DynamicTableSink,
                SupportsOverwrite,
                SupportsPartitioning,
                SupportsRowLevelDelete,
                SupportsRowLevelUpdate,
                SupportsTruncate {

    /**
     * The commit identifier of a truncate's one snapshot; its commit user is its own, so no other
     * commit can be mistaken for it.
     */
    private static final long TRUNCATE_IDENTIFIER = 1;

    private final Table table;
    private boolean overwrite;
    private Map<String, String> staticPartition = new LinkedHashMap<>();

    public TarnTableSink(Table table) {
        this.table = table;
    }

    @Override
    public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
        if (!isPrimaryKeyTable()) {
            return ChangelogMode.insertOnly();
        }
        if (mergeEngine().needsUpdateBefore()) {
            return requestedMode; // Retractions (-U, -D) subtract from aggregates.
        }
        if (table.config().stream().changelogProducer().storesInput()) {
            return requestedMode; // The stored changelog holds every change, -U included.
        }
        // What the query produces, without -U: a change by key replaces the key's row, so an
        // insert-only query stays insert-only and needs no upsert materialization. (With
        // 'lookup' the writers compute the -U rows themselves.)
        ChangelogMode.Builder mode = ChangelogMode.newBuilder();
        for (RowKind kind : requestedMode.getContainedKinds()) {
            if (kind != RowKind.UPDATE_BEFORE) {
                mode.addContainedKind(kind);
            }
        }
        return mode.build();
    }

    @Override
    public RowLevelDeleteInfo applyRowLevelDelete(
            @Nullable RowLevelModificationScanContext context) {
        requireEngine("DELETE", MergeEngine::supportsDelete);
        return new RowLevelDeleteInfo() {};
    }

    @Override
    public RowLevelUpdateInfo applyRowLevelUpdate(
            List<Column> updatedColumns, @Nullable RowLevelModificationScanContext context) {
        requireEngine("UPDATE", MergeEngine::supportsUpdate);
        for (Column column : updatedColumns) {
            if (table.schema().primaryKeys().contains(column.getName())) {
                throw new ValidationException(
                        String.format(
                                "Cannot UPDATE primary-key column %s of Tarn table %s: a key"
                                        + " identifies its row; DELETE it and INSERT the new key",
                                column.getName(), table.name()));
            }
        }
        return new RowLevelUpdateInfo() {};
    }

    /** Row-level statements turn into changes by key: a primary key and a fitting engine. */
    private void requireEngine(String statement, Predicate<MergeEngine> supports) {
        if (!isPrimaryKeyTable()) {
            throw new ValidationException(
                    String.format(
                            "Cannot %s rows of Tarn table %s: it has no primary key. Row-level"
                                    + " %s needs a primary-key table; use INSERT OVERWRITE to"
                                    + " rewrite partitions of an append table.",
                            statement, table.name(), statement));
        }
        if (!supports.test(mergeEngine())) {
            List<String> engines =
                    Arrays.stream(MergeEngine.values())
                            .filter(supports)
                            .map(MergeEngine::key)
                            .toList();
            throw new ValidationException(
                    String.format(
                            "Cannot %s rows of Tarn table %s: its merge engine '%s' does not apply"
                                    + " %s by key; supported with merge-engine %s",
                            statement, table.name(), mergeEngine().key(), statement, engines));
        }
    }

    private boolean isPrimaryKeyTable() {
        return table.kind() == TableKind.PRIMARY_KEY;
    }

    private MergeEngine mergeEngine() {
        return table.config().lsm().mergeEngine();
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
        CommitUser user = new CommitUser(UUID.randomUUID().toString(), System.currentTimeMillis());
        OverwriteSpec overwriteSpec = spec;
        boolean bounded = context.isBounded();
        return (DataStreamSinkProvider)
                (providerContext, rows) -> {
                    StreamExecutionEnvironment env = rows.getExecutionEnvironment();
                    requireCheckpointing(env, bounded);
                    TarnSink sink =
                            new TarnSink(
                                    table,
                                    user,
                                    overwriteSpec,
                                    isStreaming(env)
                                            && env.getCheckpointConfig().isCheckpointingEnabled());
                    DataStream<RowData> input = rows;
                    // One writer takes every bucket: routing would only add a network hop.
                    if (isPrimaryKeyTable()
                            && rows.getExecutionEnvironment().getParallelism() != 1) {
                        BucketRouting routing = new BucketRouting(table);
                        input = rows.partitionCustom(routing, routing);
                    }
                    return input.sinkTo(sink).name("Tarn(" + table.name() + ")");
                };
    }

    /**
     * An unbounded input publishes only at completed checkpoints: without checkpointing its rows
     * would never become visible, so the job is refused before it starts.
     */
    private void requireCheckpointing(StreamExecutionEnvironment env, boolean bounded) {
        if (isStreaming(env) && !bounded && !env.getCheckpointConfig().isCheckpointingEnabled()) {
            throw new ValidationException(
                    "Cannot write to Tarn table "
                            + table.name()
                            + " from an unbounded streaming query without checkpointing: rows"
                            + " are committed when a checkpoint completes. Enable it, e.g. SET"
                            + " 'execution.checkpointing.interval' = '10s';");
        }
    }

    private static boolean isStreaming(StreamExecutionEnvironment env) {
        return env.getConfiguration().get(ExecutionOptions.RUNTIME_MODE)
                != RuntimeExecutionMode.BATCH;
    }

    @Override
    public void applyOverwrite(boolean overwrite) {
        this.overwrite = overwrite;
    }

    /**
     * {@code TRUNCATE TABLE} (batch mode only, as Flink allows it): the commit of an INSERT
     * OVERWRITE of the whole table without rows, one OVERWRITE snapshot that deletes every live
     * file, also those an append published just before it. Older snapshots still read the rows; the
     * files go when those snapshots expire. Runs in the client, like the catalog's partition drop.
     */
    @Override
    public void executeTruncation() {
        String user = "truncate-" + UUID.randomUUID();
        try (TableCommit commit = table.newCommit(user)) {
            commit.commit(
                    CommitRequest.of(TRUNCATE_IDENTIFIER, List.of())
                            .overwriting(partition -> true));
        }
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
