package dev.tarn.connector;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/** What the connector's ITCases share: their cluster, their input, and reading one result. */
final class TestJobs {

    /** One task manager with {@code slots} slots, shared by the tests of a class. */
    static MiniClusterExtension miniCluster(int slots) {
        return new MiniClusterExtension(
                new MiniClusterResourceConfiguration.Builder()
                        .setNumberTaskManagers(1)
                        .setNumberSlotsPerTaskManager(slots)
                        .build());
    }

    /**
     * Rows {@code (id BIGINT, v STRING)} for ids 0 to {@code count - 1}, at most {@code perSecond}
     * a second, from a checkpointed FLIP-27 source.
     */
    static DataStream<Row> idRows(
            StreamExecutionEnvironment env,
            long count,
            double perSecond,
            String name,
            MapFunction<Long, Row> toRow) {
        return env.fromSource(
                        new DataGeneratorSource<>(
                                i -> i,
                                count,
                                RateLimiterStrategy.perSecond(perSecond),
                                Types.LONG),
                        WatermarkStrategy.noWatermarks(),
                        name)
                .uid(name)
                .map(toRow)
                .uid(name + "-rows")
                .returns(Types.ROW_NAMED(new String[] {"id", "v"}, Types.LONG, Types.STRING));
    }

    /** The single row a query returns, as text. */
    static String single(TableEnvironment env, String query) throws Exception {
        try (CloseableIterator<Row> it = env.executeSql(query).collect()) {
            return it.next().toString();
        }
    }

    private TestJobs() {}
}
