package dev.tarn.connector.source;

import dev.tarn.format.Table;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.schema.TableOptions;
import dev.tarn.format.snapshot.Snapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.connector.source.abilities.SupportsFilterPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsLimitPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsProjectionPushDown;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;

/**
 * The planner's view of a Tarn table as a source: a bounded scan of one snapshot, with projection,
 * filter (partition pruning, file and row-group skipping) and limit pushdown. The snapshot is
 * resolved when the plan is made, so an invalid time-travel option fails the statement with a clear
 * message and every task reads the same snapshot.
 */
public final class TarnTableSource
        implements ScanTableSource,
                SupportsProjectionPushDown,
                SupportsFilterPushDown,
                SupportsLimitPushDown {

    private final Table table;
    private RowType readType;
    private final List<Predicate> filters = new ArrayList<>();
    private long limit = Long.MAX_VALUE;

    public TarnTableSource(Table table) {
        this.table = table;
        this.readType = table.schema().rowType();
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return ChangelogMode.insertOnly();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        Table pinned = table;
        try {
            Snapshot snapshot = table.newScan().resolveSnapshot();
            if (snapshot != null) {
                pinned =
                        table.withDynamicOptions(
                                Map.of(
                                        TableOptions.SCAN_SNAPSHOT_ID.key(),
                                        String.valueOf(snapshot.id())));
            }
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new ValidationException(e.getMessage(), e);
        }
        Predicate filter =
                filters.isEmpty()
                        ? null
                        : filters.size() == 1 ? filters.get(0) : new Predicate.And(filters);
        return SourceProvider.of(new TarnSource(pinned, readType, filter, limit));
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
        TarnTableSource copy = new TarnTableSource(table);
        copy.readType = readType;
        copy.filters.addAll(filters);
        copy.limit = limit;
        return copy;
    }

    @Override
    public String asSummaryString() {
        return "Tarn(" + table.name() + ")";
    }
}
