package dev.tarn.connector.source;

import dev.tarn.connector.source.enumerator.TableWatermarks;
import dev.tarn.connector.source.enumerator.TarnContinuousEnumerator;
import dev.tarn.connector.source.enumerator.TarnEnumeratorState;
import dev.tarn.connector.source.enumerator.TarnEnumeratorStateSerializer;
import dev.tarn.connector.source.enumerator.TarnSplitEnumerator;
import dev.tarn.connector.source.split.TarnSplit;
import dev.tarn.connector.source.split.TarnSplitSerializer;
import dev.tarn.format.Table;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.StreamScan;
import dev.tarn.format.read.TableRead;
import dev.tarn.format.read.TableScan;
import dev.tarn.format.schema.StreamConfig;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.flink.api.common.eventtime.TimestampAssigner;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/**
 * The Tarn FLIP-27 source, in one of three modes ({@link Mode}). Topology:
 *
 * <pre>
 *   [enumerator] plans splits --assigns--> [reader 0..n-1: fetcher threads decode] --> rows
 *     SNAPSHOT: one snapshot, a split per request, one per fetcher thread (bounded)
 *     FOLLOW:   the start, then each new snapshot's changes, by bucket (unbounded)
 *     CHANGES:  the changes of 'incremental-between', by bucket (bounded)
 * </pre>
 *
 * In a streaming read with a watermark ({@link Watermarks}) the enumerator also tells every reader
 * the table's watermark snapshot by snapshot, which each reader emits once it has read what the
 * watermark covers: for {@code SOURCE_WATERMARK()} the one the snapshots' writers recorded, for a
 * declared watermark the lowest the readers' generators reported for a snapshot's splits.
 */
public final class TarnSource
        implements Source<RowData, TarnSplit, TarnEnumeratorState>, ResultTypeQueryable<RowData> {

    private static final long serialVersionUID = 1L;

    /** What the source reads. */
    enum Mode {
        /** One snapshot, whole: a batch read. */
        SNAPSHOT,
        /** The start position, then the changes of every new snapshot, without end. */
        FOLLOW,
        /** The changes between two snapshots ({@code incremental-between}), then the end. */
        CHANGES
    }

    private final Table table;
    private final RowType readType;
    @Nullable private final Predicate filter;
    private final long limit;
    private final Mode mode;
    private final Watermarks watermarks;
    private final boolean completesChangelog;

    /**
     * The watermark a read that follows the table (or reads its changes) emits.
     *
     * @param declared the declared watermark's generator, run by the readers over their rows
     * @param fromSnapshots {@code SOURCE_WATERMARK()}: the watermark the snapshots recorded
     */
    record Watermarks(@Nullable WatermarkStrategy<RowData> declared, boolean fromSnapshots)
            implements Serializable {

        static final Watermarks NONE = new Watermarks(null, false);

        /** Where the enumerator takes the watermark from, or null for a read without one. */
        @Nullable
        TableWatermarks.Source source() {
            if (fromSnapshots) {
                return TableWatermarks.Source.SNAPSHOTS;
            }
            return declared == null ? null : TableWatermarks.Source.READERS;
        }
    }

    /**
     * @param watermarks the watermark to emit, ignored by a SNAPSHOT read
     * @param completesChangelog whether the readers complete a primary-key table's upserts into a
     *     changelog ({@link TableRead#completingChangelog})
     */
    TarnSource(
            Table table,
            RowType readType,
            @Nullable Predicate filter,
            long limit,
            Mode mode,
            Watermarks watermarks,
            boolean completesChangelog) {
        this.completesChangelog = completesChangelog && mode == Mode.FOLLOW;
        this.table = table;
        this.readType = readType;
        this.filter = filter;
        this.limit = limit;
        this.mode = mode;
        this.watermarks = mode == Mode.SNAPSHOT ? Watermarks.NONE : watermarks;
    }

    @Override
    public Boundedness getBoundedness() {
        return mode == Mode.FOLLOW ? Boundedness.CONTINUOUS_UNBOUNDED : Boundedness.BOUNDED;
    }

    @Override
    public SourceReader<RowData, TarnSplit> createReader(SourceReaderContext context) {
        // The first split takes a round trip to the enumerator: Parquet's classes load meanwhile.
        table.warmUp();
        int threads = table.config().decodeThreads();
        // The lanes' completing reads share one memory: the first lane's.
        TableRead[] first = new TableRead[1];
        return new TarnSourceReader(
                context,
                lane -> {
                    TableRead read = table.newRead().withReadType(readType).withFilter(filter);
                    if (!completesChangelog) {
                        return read;
                    }
                    read.completingChangelog(first[0]);
                    if (first[0] == null) {
                        first[0] = read;
                    }
                    return read;
                },
                threads,
                limit,
                mode == Mode.SNAPSHOT,
                watermarks);
    }

    @Override
    public SplitEnumerator<TarnSplit, TarnEnumeratorState> createEnumerator(
            SplitEnumeratorContext<TarnSplit> context) {
        return switch (mode) {
            case SNAPSHOT -> {
                TableScan.Plan plan = table.newScan().withFilter(filter).plan();
                long committed =
                        plan.snapshot() == null
                                ? TimestampAssigner.NO_TIMESTAMP
                                : plan.snapshot().commit().timeMillis();
                List<TarnSplit> splits = new ArrayList<>();
                for (Split split : plan.splits()) {
                    splits.add(TarnSplit.of(String.valueOf(splits.size()), split, committed));
                }
                yield new TarnSplitEnumerator(context, splits, plan.stats());
            }
            case FOLLOW -> {
                StreamScan scan = table.newStreamScan(filter);
                yield follow(context, scan, scan.start(), null);
            }
            case CHANGES -> {
                StreamScan scan = table.newStreamScan(filter);
                StreamConfig.Between between = table.config().stream().between();
                yield follow(context, scan, scan.between(between), null);
            }
        };
    }

    @Override
    public SplitEnumerator<TarnSplit, TarnEnumeratorState> restoreEnumerator(
            SplitEnumeratorContext<TarnSplit> context, TarnEnumeratorState checkpoint) {
        if (mode == Mode.SNAPSHOT) {
            return new TarnSplitEnumerator(context, checkpoint.pending(), null);
        }
        return follow(context, table.newStreamScan(filter), null, checkpoint);
    }

    private TarnContinuousEnumerator follow(
            SplitEnumeratorContext<TarnSplit> context,
            StreamScan scan,
            @Nullable StreamScan.Start start,
            @Nullable TarnEnumeratorState restored) {
        String consumerId = mode == Mode.FOLLOW ? table.config().stream().consumerId() : null;
        var settings =
                new TarnContinuousEnumerator.Settings(
                        table.config().stream().discoveryInterval().toMillis(),
                        consumerId == null ? null : table.consumers(),
                        consumerId,
                        mode == Mode.CHANGES,
                        watermarks.source());
        return new TarnContinuousEnumerator(context, scan, settings, start, restored);
    }

    @Override
    public SimpleVersionedSerializer<TarnSplit> getSplitSerializer() {
        return new TarnSplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<TarnEnumeratorState> getEnumeratorCheckpointSerializer() {
        return new TarnEnumeratorStateSerializer();
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return InternalTypeInfo.of(readType);
    }
}
