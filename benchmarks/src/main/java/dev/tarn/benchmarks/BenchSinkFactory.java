package dev.tarn.benchmarks;

import java.util.Set;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.FactoryUtil;

/**
 * What the benchmarks' checking sinks share: a connector without options whose table is a Sink V2
 * sink that each factory makes for the table's name ({@link #sink}), accepting the changelog mode
 * the factory gives.
 */
abstract class BenchSinkFactory implements DynamicTableSinkFactory {

    private final String identifier;
    private final ChangelogMode mode;

    BenchSinkFactory(String identifier, ChangelogMode mode) {
        this.identifier = identifier;
        this.mode = mode;
    }

    /**
     * The sink of table {@code context}'s object, made on the job's client; its writers find what
     * they report to by the table's name.
     *
     * @throws IllegalArgumentException naming the table and the reason if the table does not fit
     */
    abstract Sink<RowData> sink(Context context);

    @Override
    public final String factoryIdentifier() {
        return identifier;
    }

    @Override
    public final Set<ConfigOption<?>> requiredOptions() {
        return Set.of();
    }

    @Override
    public final Set<ConfigOption<?>> optionalOptions() {
        return Set.of();
    }

    @Override
    public final DynamicTableSink createDynamicTableSink(Context context) {
        FactoryUtil.createTableFactoryHelper(this, context).validate();
        return new TableSink(identifier, mode, sink(context));
    }

    private record TableSink(String identifier, ChangelogMode mode, Sink<RowData> sink)
            implements DynamicTableSink {
        @Override
        public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
            return mode;
        }

        @Override
        public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
            return SinkV2Provider.of(sink);
        }

        @Override
        public DynamicTableSink copy() {
            return this;
        }

        @Override
        public String asSummaryString() {
            return identifier;
        }
    }
}
