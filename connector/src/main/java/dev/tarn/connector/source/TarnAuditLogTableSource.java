package dev.tarn.connector.source;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.source.DataStreamScanProvider;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.utils.JoinedRowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * The system table {@code t$audit_log}: every row of the table's own read ({@link TarnTableSource},
 * the latest snapshot in batch mode, the table's changes in streaming mode) with the row's kind as
 * a leading column ({@code +I}, {@code -U}, {@code +U}, {@code -D}) and the row itself emitted as
 * an insert, so a query sees a table's history as plain rows.
 *
 * <pre>
 *   TarnSource (the table's read) -> [kind, row...] as +I -> planner
 * </pre>
 */
public final class TarnAuditLogTableSource implements ScanTableSource {

    /** The system table's name, and Apache Paimon's for the same table. */
    public static final String NAME = "audit_log";

    /** The leading column: the row kind of each row, as Flink writes it ({@code +I}, ...). */
    public static final String ROW_KIND_COLUMN = "rowkind";

    private final TarnTableSource table;
    private final RowType rowType;

    /**
     * @param table the table's read, in the query's runtime mode
     * @param rowType {@value #ROW_KIND_COLUMN} followed by the table's columns
     */
    public TarnAuditLogTableSource(TarnTableSource table, RowType rowType) {
        this.table = table;
        this.rowType = rowType;
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return ChangelogMode.insertOnly();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        ScanRuntimeProvider read = table.getScanRuntimeProvider(context);
        InternalTypeInfo<RowData> type = InternalTypeInfo.of(rowType);
        String name = asSummaryString();
        return new DataStreamScanProvider() {
            @Override
            public DataStream<RowData> produceDataStream(
                    ProviderContext provider, StreamExecutionEnvironment env) {
                DataStream<RowData> rows;
                if (read instanceof SourceProvider source) {
                    Source<RowData, ?, ?> tarn = source.createSource();
                    DataStreamSource<RowData> stream =
                            env.fromSource(tarn, WatermarkStrategy.noWatermarks(), name);
                    provider.generateUid("source").ifPresent(stream::uid);
                    rows = stream;
                } else if (read instanceof DataStreamScanProvider stream) {
                    rows = stream.produceDataStream(provider, env);
                } else {
                    throw new ValidationException(
                            "Cannot read " + name + ": unexpected read of the table " + read);
                }
                return rows.map(new KindAsColumn()).returns(type).name(name);
            }

            @Override
            public boolean isBounded() {
                return read instanceof SourceProvider source
                        ? source.isBounded()
                        : ((DataStreamScanProvider) read).isBounded();
            }
        };
    }

    @Override
    public DynamicTableSource copy() {
        return new TarnAuditLogTableSource((TarnTableSource) table.copy(), rowType);
    }

    @Override
    public String asSummaryString() {
        return table.asSummaryString();
    }

    /** A row as an insert of its kind followed by its fields. */
    private static final class KindAsColumn implements MapFunction<RowData, RowData> {

        private static final long serialVersionUID = 1L;

        @Override
        public RowData map(RowData row) {
            GenericRowData kind =
                    GenericRowData.of(StringData.fromString(row.getRowKind().shortString()));
            return new JoinedRowData(RowKind.INSERT, kind, row);
        }
    }
}
