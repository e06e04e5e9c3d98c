package dev.tarn.connector;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
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

    /** Fails a job's tasks over and restarts them up to 3 times, 100 ms apart. */
    static Configuration restarting() {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
        return conf;
    }

    /**
     * The numbers 0 to {@code count - 1}, as fast as {@code limiter} lets them, from a checkpointed
     * FLIP-27 source.
     */
    static SingleOutputStreamOperator<Long> sequence(
            StreamExecutionEnvironment env,
            long count,
            RateLimiterStrategy<?> limiter,
            String name) {
        return env.fromSource(
                        new DataGeneratorSource<>(i -> i, count, limiter, Types.LONG),
                        WatermarkStrategy.noWatermarks(),
                        name)
                .uid(name);
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
        return sequence(env, count, RateLimiterStrategy.perSecond(perSecond), name)
                .map(toRow)
                .uid(name + "-rows")
                .returns(Types.ROW_NAMED(new String[] {"id", "v"}, Types.LONG, Types.STRING));
    }

    /** Every row a query returns. */
    static List<Row> collect(TableEnvironment env, String query) throws Exception {
        List<Row> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = env.executeSql(query).collect()) {
            it.forEachRemaining(rows::add);
        }
        return rows;
    }

    /** Every row a query returns, as text. */
    static List<String> rows(TableEnvironment env, String query) throws Exception {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = env.executeSql(query).collect()) {
            it.forEachRemaining(r -> rows.add(r.toString()));
        }
        return rows;
    }

    /** The single row a query returns, as text. */
    static String single(TableEnvironment env, String query) throws Exception {
        try (CloseableIterator<Row> it = env.executeSql(query).collect()) {
            return it.next().toString();
        }
    }

    private TestJobs() {}
}
