package dev.tarn.connector.source;

import dev.tarn.format.Table;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.TableScan;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;
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
 * The Tarn FLIP-27 source for a bounded read of one snapshot. Topology:
 *
 * <pre>
 *   [enumerator] plans one snapshot into splits --assign on request--> [reader 0..n-1] --> rows
 * </pre>
 *
 * The snapshot is fixed when the enumerator is created, so commits during the job are not seen.
 */
public final class TarnSource
        implements Source<RowData, TarnSplit, List<TarnSplit>>, ResultTypeQueryable<RowData> {

    private static final long serialVersionUID = 1L;

    private final Table table;
    private final RowType readType;
    @Nullable private final Predicate filter;
    private final long limit;

    TarnSource(Table table, RowType readType, @Nullable Predicate filter, long limit) {
        this.table = table;
        this.readType = readType;
        this.filter = filter;
        this.limit = limit;
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.BOUNDED;
    }

    @Override
    public SourceReader<RowData, TarnSplit> createReader(SourceReaderContext context) {
        return new TarnSourceReader(
                context, table.newRead().withReadType(readType).withFilter(filter), limit);
    }

    @Override
    public SplitEnumerator<TarnSplit, List<TarnSplit>> createEnumerator(
            SplitEnumeratorContext<TarnSplit> context) {
        TableScan.Plan plan = table.newScan().withFilter(filter).plan();
        List<TarnSplit> splits = new ArrayList<>();
        for (Split split : plan.splits()) {
            splits.add(new TarnSplit(String.valueOf(splits.size()), split, 0));
        }
        return new TarnSplitEnumerator(context, splits);
    }

    @Override
    public SplitEnumerator<TarnSplit, List<TarnSplit>> restoreEnumerator(
            SplitEnumeratorContext<TarnSplit> context, List<TarnSplit> checkpoint) {
        return new TarnSplitEnumerator(context, checkpoint);
    }

    @Override
    public SimpleVersionedSerializer<TarnSplit> getSplitSerializer() {
        return new TarnSplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<List<TarnSplit>> getEnumeratorCheckpointSerializer() {
        return new TarnEnumeratorStateSerializer();
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return InternalTypeInfo.of(readType);
    }
}
