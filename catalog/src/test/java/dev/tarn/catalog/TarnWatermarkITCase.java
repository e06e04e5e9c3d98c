package dev.tarn.catalog;

import static org.apache.flink.table.api.Expressions.$;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.Table;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.StreamScan;
import dev.tarn.format.read.TableRead;
import dev.tarn.format.write.CommitMessage;
import dev.tarn.format.write.TableWrite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Event time over Tarn tables: a streaming writer records its watermark in the snapshots; a table's
 * declared {@code WATERMARK FOR} closes event-time windows of a streaming read, readers without
 * splits included; {@code SOURCE_WATERMARK()} emits the snapshots' watermarks, also when a snapshot
 * brings no row; the catalog keeps the declaration.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class TarnWatermarkITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    private static final String WINDOWS =
            "SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE db.%s, DESCRIPTOR(ts),"
                    + " INTERVAL '10' SECOND)) GROUP BY window_start, window_end";

    @TempDir Path lake;
    private LakeSql batch;
    private final List<Follower> followers = new ArrayList<>();

    @BeforeEach
    void open() {
        batch = LakeSql.open(lake);
    }

    @AfterEach
    void cancel() throws Exception {
        for (Follower f : followers) {
            f.close();
        }
    }

    private TableEnvironment streaming() {
        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        env.getConfig().set("parallelism.default", "2");
        env.getConfig().set("table.local-time-zone", "UTC");
        register(env);
        return env;
    }

    private void register(TableEnvironment env) {
        env.executeSql(
                "CREATE CATALOG lake WITH ('type' = 'tarn', 'warehouse' = '" + lake.toUri() + "')");
        env.executeSql("USE CATALOG lake");
    }

    private Follower follow(String query) {
        Follower f = new Follower(streaming().executeSql(query));
        followers.add(f);
        return f;
    }

    private Table table(String name) {
        return Table.load(
                FileIO.flinkFileSystems(),
                new org.apache.flink.core.fs.Path(lake.resolve("db.db/" + name).toUri()),
                "db." + name);
    }

    /** {@code (id, ts)} rows with ts at the given seconds since the epoch. */
    private static String values(int... seconds) {
        DateTimeFormatter format = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
        List<String> rows = new ArrayList<>();
        for (int s : seconds) {
            String ts = LocalDateTime.ofEpochSecond(s, 0, ZoneOffset.UTC).format(format);
            rows.add("(" + s + ", TIMESTAMP '" + ts + "')");
        }
        return String.join(", ", rows);
    }

    private static int[] range(int from, int to) {
        int[] seconds = new int[to - from + 1];
        for (int i = 0; i < seconds.length; i++) {
            seconds[i] = from + i;
        }
        return seconds;
    }

    @Test
    void aStreamingWriterRecordsTheLowestWatermarkOfItsWriters() throws Exception {
        batch.exec("CREATE TABLE db.events (id BIGINT)");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(100);
        // Each source subtask counts through its half of the ids, event time id seconds: the
        // second writer's watermark runs 400 s ahead of the first one's.
        DataStream<Row> input =
                env.fromSource(
                                new DataGeneratorSource<>(
                                        i -> i,
                                        800,
                                        RateLimiterStrategy.perSecond(300),
                                        Types.LONG),
                                WatermarkStrategy.<Long>forMonotonousTimestamps()
                                        .withTimestampAssigner((id, ts) -> id * 1000),
                                "events")
                        .map(i -> Row.of(i))
                        .returns(Types.ROW_NAMED(new String[] {"id"}, Types.LONG));
        StreamTableEnvironment streaming = StreamTableEnvironment.create(env);
        register(streaming);
        // The stream's watermarks pass into SQL only if its schema takes them.
        Schema schema =
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT())
                        .columnByMetadata("rowtime", DataTypes.TIMESTAMP_LTZ(3))
                        .watermark("rowtime", "SOURCE_WATERMARK()")
                        .build();
        streaming.fromDataStream(input, schema).select($("id")).executeInsert("db.events").await();

        Table table = table("events");
        long last = table.metadata().latestSnapshotId().getAsLong();
        List<Long> watermarks = new ArrayList<>();
        for (long id = 1; id <= last; id++) {
            watermarks.add(table.metadata().snapshot(id).commit().watermark());
        }
        assertThat(watermarks).as("snapshots with a watermark").hasSizeGreaterThan(3);
        assertThat(watermarks.get(watermarks.size() - 1))
                .as("the end of input is not recorded")
                .isNotNull()
                .isLessThan(800_000L);
        assertThat(watermarks.stream().filter(w -> w != null).toList()).isSorted();
        assertThat(Files.readString(lake.resolve("db.db/events/snapshot/snapshot-" + last)))
                .contains("\"watermark\" : " + watermarks.get(watermarks.size() - 1));
        // The watermark's promise: no row at or before it comes in a later snapshot.
        StreamScan scan = table.newStreamScan(null);
        long minLater = Long.MAX_VALUE;
        for (long id = last; id >= 1; id--) {
            Long w = watermarks.get((int) id - 1);
            if (w != null && minLater != Long.MAX_VALUE) {
                assertThat(minLater * 1000)
                        .as("the first event time after snapshot %d, whose watermark is %d", id, w)
                        .isGreaterThan(w);
            }
            minLater = Math.min(minLater, minId(table, scan.changes(id).get().splits()));
        }
        assertThat(batch.query("SELECT COUNT(*) FROM db.events")).containsExactly("+I[800]");
    }

    private static long minId(Table table, List<Split> splits) throws Exception {
        long min = Long.MAX_VALUE;
        TableRead read = table.newRead();
        for (Split split : splits) {
            try (TableRead.SplitReader reader = read.open(split)) {
                for (RowData r = reader.next(); r != null; r = reader.next()) {
                    min = Math.min(min, r.getLong(0));
                }
            }
        }
        return min;
    }

    @Test
    void aDeclaredWatermarkClosesTumblingWindows() throws Exception {
        batch.exec(
                "CREATE TABLE db.ev (id INT, ts TIMESTAMP(3),"
                        + " WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('bucket' = '2')");
        Follower windows = follow(String.format(WINDOWS, "ev"));
        windows.awaitRunning();
        batch.exec("INSERT INTO db.ev VALUES " + values(range(1, 25)));
        assertThat(windows.take(2))
                .containsExactly("+I[1970-01-01T00:00, 9]", "+I[1970-01-01T00:00:10, 10]");
        batch.exec("INSERT INTO db.ev VALUES " + values(range(26, 60)));
        assertThat(windows.take(3))
                .containsExactly(
                        "+I[1970-01-01T00:00:20, 10]",
                        "+I[1970-01-01T00:00:30, 10]",
                        "+I[1970-01-01T00:00:40, 10]");
        windows.assertNothingFor(1500);
    }

    @Test
    void aReaderWithoutSplitsDoesNotHoldADeclaredWatermarkBack() throws Exception {
        // One bucket, two readers: one of them never gets a split.
        batch.exec(
                "CREATE TABLE db.single (id INT, ts TIMESTAMP(3),"
                        + " WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('bucket' = '1')");
        batch.exec("INSERT INTO db.single VALUES " + values(1, 2, 3));
        Follower windows = follow(String.format(WINDOWS, "single"));
        windows.assertNothingFor(1500);
        batch.exec("INSERT INTO db.single VALUES " + values(12, 25));
        assertThat(windows.take(2))
                .containsExactly("+I[1970-01-01T00:00, 3]", "+I[1970-01-01T00:00:10, 1]");
    }

    @Test
    void sourceWatermarkFollowsTheSnapshotsAlsoWithoutRows() throws Exception {
        batch.exec(
                "CREATE TABLE db.sw (id INT, ts TIMESTAMP(3),"
                        + " WATERMARK FOR ts AS SOURCE_WATERMARK()) WITH ('bucket' = '1')");
        Follower windows = follow(String.format(WINDOWS, "sw"));
        windows.awaitRunning();
        Table table = table("sw");
        commit(table, 1, 5_000, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15);
        windows.assertNothingFor(1000);
        // No row, but the writers' watermark passed the first window: a snapshot of it alone.
        commit(table, 2, 12_000);
        assertThat(windows.take(1)).containsExactly("+I[1970-01-01T00:00, 9]");
        commit(table, 3, 20_000, 25);
        assertThat(windows.take(1)).containsExactly("+I[1970-01-01T00:00:10, 1]");
        commit(table, 4, 31_000);
        assertThat(windows.take(1)).containsExactly("+I[1970-01-01T00:00:20, 1]");
        windows.assertNothingFor(1000);
        assertThat(table.metadata().latestSnapshot().orElseThrow().records().total()).isEqualTo(11);
    }

    /** Commits rows at {@code seconds} as one snapshot whose writers' watermark is {@code w}. */
    private static void commit(Table table, long identifier, long w, int... seconds)
            throws Exception {
        List<CommitMessage> messages;
        try (TableWrite write = table.newWrite()) {
            for (int s : seconds) {
                write.write(GenericRowData.of(s, TimestampData.fromEpochMillis(s * 1000L)));
            }
            messages = write.prepareCommit();
        }
        table.newCommit("writer").commit(CommitRequest.of(identifier, messages).withWatermark(w));
        assertThat(table.metadata().latestSnapshot().orElseThrow().commit().watermark())
                .isEqualTo(w);
    }

    @Test
    void aQueryMayDeclareAWatermarkForATableWithoutOne() throws Exception {
        batch.exec("CREATE TABLE db.plain (id INT, ts TIMESTAMP(3)) WITH ('bucket' = '2')");
        TableEnvironment env = streaming();
        env.executeSql(
                "CREATE TEMPORARY TABLE default_catalog.default_database.timed ("
                        + " WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' ="
                        + " 'tarn') LIKE db.plain");
        Follower windows =
                new Follower(
                        env.executeSql(
                                String.format(WINDOWS, "plain")
                                        .replace(
                                                "db.plain",
                                                "default_catalog.default_database.timed")));
        followers.add(windows);
        windows.awaitRunning();
        batch.exec("INSERT INTO db.plain VALUES " + values(range(1, 25)));
        assertThat(windows.take(2))
                .containsExactly("+I[1970-01-01T00:00, 9]", "+I[1970-01-01T00:00:10, 10]");

        // Flink's watermark hints: the idle timeout is taken (and not needed), alignment refused.
        String idle =
                "SELECT * FROM default_catalog.default_database.timed"
                        + " /*+ OPTIONS('scan.watermark.idle-timeout' = '1 s') */";
        env.executeSql("EXPLAIN " + idle);
        assertThatThrownBy(
                        () ->
                                env.executeSql(
                                        "EXPLAIN SELECT * FROM"
                                                + " default_catalog.default_database.timed /*+"
                                                + " OPTIONS('scan.watermark.alignment.group' ="
                                                + " 'g', 'scan.watermark.alignment.max-drift' ="
                                                + " '1 s') */"))
                .rootCause()
                .hasMessageContaining(
                        "Option 'scan.watermark.alignment.group' = 'g' of table"
                                + " default_catalog.default_database.timed is not supported");
    }

    @Test
    void theCatalogKeepsAndAltersTheWatermark() throws Exception {
        batch.exec(
                "CREATE TABLE db.t (id INT, ts TIMESTAMP(3),"
                        + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)");
        assertThat(String.join("\n", batch.query("SHOW CREATE TABLE db.t")))
                .contains("WATERMARK FOR `ts` AS `ts` - INTERVAL '5' SECOND");
        batch.exec("ALTER TABLE db.t MODIFY WATERMARK FOR ts AS SOURCE_WATERMARK()");
        assertThat(String.join("\n", batch.query("SHOW CREATE TABLE db.t")))
                .contains("WATERMARK FOR `ts` AS `SOURCE_WATERMARK`()");
        batch.exec("ALTER TABLE db.t DROP WATERMARK");
        assertThat(String.join("\n", batch.query("SHOW CREATE TABLE db.t")))
                .doesNotContain("WATERMARK");
        assertThat(lake.resolve("db.db/t/schema/schema-2")).exists();
    }
}
