package dev.tarn.connector.source;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.source.DataStreamScanProvider;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.Collector;

/**
 * A bounded, insert-only source of rows computed when the plan is made: a metadata system table's
 * ({@code t$snapshots}, ...). Such a table is small, so its rows travel in the job graph, as bytes
 * of Flink's row serializer. Flink's built-in bounded sequence source drives them on one task (row
 * {@code i} for number {@code i}), so the read ends after the last row in batch and in streaming
 * mode alike.
 *
 * <pre>
 *   numbers 0..n-1 (parallelism 1) -> row i -> planner
 * </pre>
 */
public final class TarnMetadataTableSource implements ScanTableSource {

    private final String name;
    private final RowType rowType;
    private final List<RowData> rows;

    /**
     * @param name how the plan names the source, e.g. {@code db.t$snapshots}
     * @param rows the table's rows, each of {@code rowType}
     */
    public TarnMetadataTableSource(String name, RowType rowType, List<RowData> rows) {
        this.name = name;
        this.rowType = rowType;
        this.rows = List.copyOf(rows);
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return ChangelogMode.insertOnly();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        InternalTypeInfo<RowData> type = InternalTypeInfo.of(rowType);
        RowsByNumber byNumber = new RowsByNumber(new RowDataSerializer(rowType), rows);
        String sourceName = asSummaryString();
        return new DataStreamScanProvider() {
            @Override
            public DataStream<RowData> produceDataStream(
                    ProviderContext provider, StreamExecutionEnvironment env) {
                // A sequence cannot be empty: an empty table reads number 0 and emits nothing.
                DataStreamSource<Long> numbers =
                        env.fromSequence(0, Math.max(byNumber.count, 1) - 1);
                numbers.name(sourceName).setParallelism(1);
                provider.generateUid("source").ifPresent(numbers::uid);
                return numbers.flatMap(byNumber).returns(type).name(sourceName).setParallelism(1);
            }

            @Override
            public boolean isBounded() {
                return true;
            }
        };
    }

    @Override
    public DynamicTableSource copy() {
        return new TarnMetadataTableSource(name, rowType, rows);
    }

    @Override
    public String asSummaryString() {
        return "Tarn(" + name + ")";
    }

    /** Row {@code i} of the serialized rows for number {@code i}; nothing past the last. */
    private static final class RowsByNumber extends RichFlatMapFunction<Long, RowData> {

        private static final long serialVersionUID = 1L;

        private final TypeSerializer<RowData> serializer;
        private final byte[] bytes;
        private final int count;
        private transient List<RowData> rows;

        RowsByNumber(TypeSerializer<RowData> serializer, List<RowData> rows) {
            this.serializer = serializer;
            this.count = rows.size();
            DataOutputSerializer out = new DataOutputSerializer(256);
            try {
                for (RowData row : rows) {
                    serializer.serialize(row, out);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot serialize the rows of a system table", e);
            }
            this.bytes = out.getCopyOfBuffer();
        }

        @Override
        public void open(OpenContext context) throws IOException {
            DataInputDeserializer in = new DataInputDeserializer(bytes);
            rows = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                rows.add(serializer.deserialize(in));
            }
        }

        @Override
        public void flatMap(Long number, Collector<RowData> out) {
            if (number < count) {
                out.collect(rows.get(number.intValue()));
            }
        }
    }
}
