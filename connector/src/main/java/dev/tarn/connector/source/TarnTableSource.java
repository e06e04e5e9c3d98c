package dev.tarn.connector.source;

import dev.tarn.connector.lookup.LookupSettings;
import dev.tarn.connector.lookup.TarnLookupJoin;
import dev.tarn.format.Table;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.StreamScan;
import dev.tarn.format.schema.StreamConfig.ChangelogProducer;
import dev.tarn.format.schema.TableSchema.TableKind;
import dev.tarn.format.snapshot.Snapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.annotation.Nullable;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.source.DataStreamScanProvider;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.LookupTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.connector.source.abilities.SupportsFilterPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsLimitPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsLookupCustomShuffle;
import org.apache.flink.table.connector.source.abilities.SupportsProjectionPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsSourceWatermark;
import org.apache.flink.table.connector.source.abilities.SupportsStatisticReport;
import org.apache.flink.table.connector.source.abilities.SupportsWatermarkPushDown;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.plan.stats.TableStats;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * The planner's view of a Tarn table as a source, with projection, filter (partition pruning, file
 * and row-group skipping), limit and watermark pushdown. In batch mode it reads one snapshot,
 * resolved when the plan is made, so an invalid time-travel option fails the statement with a clear
 * message and every task reads the same snapshot. In streaming mode it follows the table (an append
 * table's new rows, a primary-key table's changes as upserts or, with a stored changelog, every
 * change), and its start options are checked when the plan is made. {@code incremental-between}
 * reads the changes between two snapshots, bounded, in either mode.
 *
 * <p>Watermarks advance snapshot by snapshot, the same for every reader, so a reader that gets no
 * split never holds them back and no idle timeout is needed. A declared {@code WATERMARK FOR} is
 * pushed into the source: each reader runs it over its rows, and once a snapshot is read whole its
 * watermark is the lowest its readers reached. {@code SOURCE_WATERMARK()} takes the watermark the
 * table's writers recorded in the snapshots. Flink's own generation is not used: after the source
 * (the planner's default) an idle reader stalls the windows, and per split (FLIP-27) each
 * snapshot's split of a bucket would start from nothing and end before a periodic watermark is
 * emitted.
 *
 * <p>As the right side of a lookup join ({@code FOR SYSTEM_TIME AS OF}) it hands the planner {@link
 * TarnLookupJoin}'s functions, over the same projection and filters; with the LOOKUP hint's {@code
 * 'shuffle' = 'true'} the planner routes facts by bucket, and each subtask holds its buckets only.
 */
public final class TarnTableSource
        implements ScanTableSource,
                LookupTableSource,
                SupportsLookupCustomShuffle,
                SupportsProjectionPushDown,
                SupportsFilterPushDown,
                SupportsLimitPushDown,
                SupportsWatermarkPushDown,
                SupportsSourceWatermark,
                SupportsStatisticReport {

    private final Table table;
    private final boolean streaming;
    private final LookupSettings lookupSettings;
    private RowType readType;
    private final List<Predicate> filters = new ArrayList<>();
    private long limit = Long.MAX_VALUE;
    @Nullable private WatermarkStrategy<RowData> watermarkStrategy;
    private boolean sourceWatermark;

    /**
     * The join keys of the last lookup provider made, which the planner asks {@link
     * #getPartitioner} to route by right after; null before one is made.
     */
    @Nullable private List<String> lookupKeys;

    /** Whether the read completes upserts: its start is read from the table once, when asked. */
    @Nullable private Boolean completesChangelog;

    /**
     * @param streaming whether the query runs in streaming mode, where the read follows the table
     */
    public TarnTableSource(Table table, boolean streaming) {
        this(table, streaming, LookupSettings.DEFAULT);
    }

    /**
     * @param streaming whether the query runs in streaming mode, where the read follows the table
     * @param lookupSettings how a lookup join against the table looks rows up
     */
    public TarnTableSource(Table table, boolean streaming, LookupSettings lookupSettings) {
        this.table = table;
        this.streaming = streaming;
        this.lookupSettings = lookupSettings;
        this.readType = table.schema().rowType();
    }

    @Override
    public LookupRuntimeProvider getLookupRuntimeProvider(LookupContext context) {
        List<String> keys = TarnLookupJoin.joinKeys(table.name(), readType, context.getKeys());
        lookupKeys = keys;
        // The planner applies our partitioner when it prefers a custom shuffle and we offer one.
        boolean shuffled =
                context.preferCustomShuffle()
                        && TarnLookupJoin.partitioner(table, keys).isPresent();
        return TarnLookupJoin.provider(table, readType, filter(), keys, shuffled, lookupSettings);
    }

    @Override
    public Optional<InputDataPartitioner> getPartitioner() {
        return lookupKeys == null
                ? Optional.empty()
                : TarnLookupJoin.partitioner(table, lookupKeys);
    }

    private TarnSource.Mode mode() {
        if (table.config().stream().between() != null) {
            return TarnSource.Mode.CHANGES;
        }
        return streaming ? TarnSource.Mode.FOLLOW : TarnSource.Mode.SNAPSHOT;
    }

    @Override
    public ChangelogMode getChangelogMode() {
        if (mode() == TarnSource.Mode.SNAPSHOT) {
            return ChangelogMode.insertOnly();
        }
        if (table.schema().kind() == TableKind.APPEND) {
            return table.config().stream().readOverwrite()
                    ? ChangelogMode.newBuilder()
                            .addContainedKind(RowKind.INSERT)
                            .addContainedKind(RowKind.DELETE)
                            .build()
                    : ChangelogMode.insertOnly();
        }
        if (table.config().stream().changelogProducer() != ChangelogProducer.NONE) {
            return ChangelogMode.all();
        }
        return completesChangelog() ? ChangelogMode.all() : ChangelogMode.upsert();
    }

    /**
     * Whether the read completes a primary-key table's upserts into a changelog itself, so that
     * Flink adds no normalizing operator: a read that follows the table from a full phase (or its
     * first snapshot), with {@code streaming-read.lookup-changelog} on. Bad start options count as
     * false here; the plan reports them.
     */
    private boolean completesChangelog() {
        if (completesChangelog == null) {
            completesChangelog = decideCompletion();
        }
        return completesChangelog;
    }

    /** What {@link #completesChangelog} answers, read from the table once per source. */
    private boolean decideCompletion() {
        if (mode() != TarnSource.Mode.FOLLOW || table.schema().kind() != TableKind.PRIMARY_KEY) {
            return false;
        }
        try {
            return table.newStreamScan(null).completesChangelog();
        } catch (IllegalArgumentException | IllegalStateException e) {
            return false;
        }
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        TarnSource.Mode mode = mode();
        if (mode == TarnSource.Mode.CHANGES
                && !streaming
                && table.schema().kind() == TableKind.PRIMARY_KEY) {
            throw new ValidationException(
                    String.format(
                            "Option 'incremental-between' on primary-key table %s needs streaming"
                                    + " mode: its changes include updates and deletes, which a"
                                    + " batch query cannot take. Set 'execution.runtime-mode' ="
                                    + " 'streaming'; the read still ends after the last snapshot.",
                            table.name()));
        }
        Predicate filter = filter();
        if (mode != TarnSource.Mode.SNAPSHOT) {
            try {
                // Checks the start now, so bad start options fail the statement; the enumerator
                // plans it when the job starts.
                StreamScan scan = table.newStreamScan(filter);
                if (mode == TarnSource.Mode.FOLLOW) {
                    scan.checkStart();
                } else {
                    scan.checkBetween(table.config().stream().between());
                }
            } catch (IllegalArgumentException | IllegalStateException e) {
                throw new ValidationException(e.getMessage(), e);
            }
            TarnSource source =
                    new TarnSource(
                            table,
                            readType,
                            filter,
                            Long.MAX_VALUE,
                            mode,
                            new TarnSource.Watermarks(watermarkStrategy, sourceWatermark),
                            completesChangelog());
            return watermarkStrategy == null && !sourceWatermark
                    ? SourceProvider.of(source)
                    : withWatermarks(source, mode != TarnSource.Mode.FOLLOW);
        }
        Table pinned = table;
        try {
            Snapshot snapshot = table.newScan().resolveSnapshot();
            // A tag pins its snapshot by itself, which may have expired as a snapshot file.
            if (snapshot != null && table.config().lifecycle().scanTagName() == null) {
                pinned = table.atSnapshot(snapshot.id());
            }
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new ValidationException(e.getMessage(), e);
        }
        return SourceProvider.of(
                new TarnSource(
                        pinned, readType, filter, limit, mode, TarnSource.Watermarks.NONE, false));
    }

    /**
     * The source as a stream that carries watermarks: the readers emit them themselves, snapshot by
     * snapshot, so Flink generates none (its per-split generation would start each split, one
     * snapshot's changes of a bucket, from nothing, and could lose a split's last watermark).
     */
    private ScanRuntimeProvider withWatermarks(TarnSource source, boolean bounded) {
        WatermarkStrategy<RowData> strategy = WatermarkStrategy.noWatermarks();
        String name = asSummaryString();
        return new DataStreamScanProvider() {
            @Override
            public DataStream<RowData> produceDataStream(
                    ProviderContext context, StreamExecutionEnvironment env) {
                DataStreamSource<RowData> stream =
                        env.fromSource(source, strategy, name, source.getProducedType());
                context.generateUid("source").ifPresent(stream::uid);
                return stream;
            }

            @Override
            public boolean isBounded() {
                return bounded;
            }
        };
    }

    @Nullable
    private Predicate filter() {
        return filters.isEmpty()
                ? null
                : filters.size() == 1 ? filters.get(0) : new Predicate.And(filters);
    }

    /**
     * For a batch read, the rows of the files it will read: those of its snapshot that its filters
     * leave after partition and file pruning, counted from the manifests (no data file is opened;
     * in a primary-key table the rows as stored, every version of a key until compaction). Unknown
     * for a streaming read, and when the plan fails (the read then reports why).
     */
    @Override
    public TableStats reportStatistics() {
        if (mode() != TarnSource.Mode.SNAPSHOT) {
            return TableStats.UNKNOWN;
        }
        try {
            List<Split> splits = table.newScan().withFilter(filter()).plan().splits();
            return new TableStats(splits.stream().mapToLong(Split::rowCount).sum());
        } catch (RuntimeException e) {
            // An estimate must never fail the statement; the read's own plan reports the cause.
            return TableStats.UNKNOWN;
        }
    }

    @Override
    public void applyWatermark(WatermarkStrategy<RowData> strategy) {
        this.watermarkStrategy = strategy;
    }

    @Override
    public void applySourceWatermark() {
        this.sourceWatermark = true;
    }

    @Override
    public boolean supportsNestedProjection() {
        return false;
    }

    @Override
    public void applyProjection(int[][] projectedFields, DataType producedDataType) {
        this.readType = (RowType) producedDataType.getLogicalType();
    }

    @Override
    public Result applyFilters(List<ResolvedExpression> expressions) {
        FilterConverter converter = new FilterConverter(table.schema().rowType());
        List<ResolvedExpression> accepted = new ArrayList<>();
        for (ResolvedExpression e : expressions) {
            Optional<Predicate> p = converter.convert(e);
            if (p.isPresent()) {
                filters.add(p.get());
                accepted.add(e);
            }
        }
        // Pruning is not filtering: Flink applies every expression to the rows we return.
        return Result.of(accepted, expressions);
    }

    @Override
    public void applyLimit(long limit) {
        this.limit = limit;
    }

    @Override
    public DynamicTableSource copy() {
        TarnTableSource copy = new TarnTableSource(table, streaming, lookupSettings);
        copy.lookupKeys = lookupKeys;
        copy.readType = readType;
        copy.filters.addAll(filters);
        copy.limit = limit;
        copy.watermarkStrategy = watermarkStrategy;
        copy.sourceWatermark = sourceWatermark;
        copy.completesChangelog = completesChangelog;
        return copy;
    }

    @Override
    public String asSummaryString() {
        return "Tarn(" + table.name() + ")";
    }
}
