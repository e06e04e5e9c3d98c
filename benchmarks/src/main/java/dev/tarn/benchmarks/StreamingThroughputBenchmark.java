package dev.tarn.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.RowKind;

/**
 * Throughput of a streaming read, full phase then changes, at parallelism 1: {@code scan.mode =
 * 'from-snapshot-full'} from snapshot 1 of a table prepared (unmeasured) through the system's Java
 * API, until the sink has counted every change the table's commits hold; the job is cancelled then.
 * A run's time is from submitting the statement to the arrival of the last expected row.
 *
 * <p>Append table: half of the rows in commit 1, the rest in {@value #LATER_COMMITS} commits; every
 * row arrives once as {@code +I}. Primary-key table ({@code 'bucket' = '4'}): upserts over a
 * quarter as many keys, version 1 of every key in commit 1 (the full phase), versions 2 to 4 in
 * {@value #LATER_COMMITS} commits, none of which writes a key twice, with {@code changelog-producer
 * = none}: each key arrives once as {@code +I}, and every later version as {@code -U} (the version
 * before) and {@code +U}. Paimon's source emits upserts, which Flink normalizes in front of the
 * sink; Tarn's completes them itself from the rows it read before ({@code
 * streaming-read.lookup-changelog}), so its plan has no normalizing operator. Checked: the rows and
 * a checksum of the keys of each row kind.
 */
final class StreamingThroughputBenchmark {

    static final String READ_OPTIONS =
            " /*+ OPTIONS('scan.mode' = 'from-snapshot-full', 'scan.snapshot-id' = '1') */";
    static final int LATER_COMMITS = 10;

    private static final String COLUMNS =
            "id BIGINT NOT NULL, k INT, s1 STRING, s2 STRING, price DOUBLE, qty INT,"
                    + " ts TIMESTAMP(3), flag BOOLEAN";
    private static final String SINK = "read_arrivals";
    private static final Duration STALL = Duration.ofSeconds(60);

    /** The two tables: what they hold, and what a read of them delivers to the sink. */
    enum Kind {
        APPEND("stream_events", "append"),
        PRIMARY_KEY("stream_users", "primary key");

        final String table;
        final String description;

        Kind(String table, String description) {
            this.table = table;
            this.description = description;
        }
    }

    /**
     * What the sink receives from a read: rows and key checksum as {@code +I}, and as each of
     * {@code -U} and {@code +U}.
     */
    record Expected(long inserts, long insertKeys, long updates, long updateKeys) {
        long total() {
            return inserts + 2 * updates;
        }
    }

    private final long rows;
    private final long keys;
    private final TableSizes sizes;

    StreamingThroughputBenchmark(long rows, TableSizes sizes) {
        this.rows = rows;
        this.keys = Math.max(1, rows / 4);
        this.sizes = sizes;
    }

    long rows() {
        return rows;
    }

    long keys() {
        return keys;
    }

    private BenchGenFactory.Rows generator(Kind kind) {
        return new BenchGenFactory.Rows(rows, kind == Kind.APPEND ? 0 : keys);
    }

    /** Rows of commit 1: the full phase of the read. */
    private long firstCommit(Kind kind) {
        return kind == Kind.APPEND ? rows / 2 : Math.min(rows, keys);
    }

    /** Creates the table of {@code kind} in {@code system} and writes its commits. */
    void prepare(LakeSystem system, Kind kind) throws Exception {
        TableEnvironment env = SessionCluster.environment(false, 1);
        system.addCatalog(env);
        List<String> options =
                new ArrayList<>(
                        kind == Kind.APPEND ? sizes.appendOptions() : sizes.primaryKeyOptions());
        String key = "";
        if (kind == Kind.PRIMARY_KEY) {
            options.add(0, "'bucket' = '4'");
            key = ", PRIMARY KEY (id) NOT ENFORCED";
        }
        env.executeSql("DROP TABLE IF EXISTS " + system.table(kind.table));
        env.executeSql(
                "CREATE TABLE "
                        + system.table(kind.table)
                        + " ("
                        + COLUMNS
                        + key
                        + ")"
                        + TableSizes.with(options));
        BenchGenFactory.Rows generator = generator(kind);
        long first = firstCommit(kind);
        try (InProcessWriter writer = system.writer(kind.table)) {
            write(writer, generator, 0, first);
            for (int c = 0; c < LATER_COMMITS; c++) {
                write(
                        writer,
                        generator,
                        first + (rows - first) * c / LATER_COMMITS,
                        first + (rows - first) * (c + 1) / LATER_COMMITS);
            }
        }
    }

    private static void write(
            InProcessWriter writer, BenchGenFactory.Rows generator, long from, long to)
            throws Exception {
        for (long i = from; i < to; i++) {
            writer.write(generator.row(i));
        }
        writer.commit();
    }

    /** What a read of the table of {@code kind} delivers. */
    Expected expected(Kind kind) {
        BenchGenFactory.Rows generator = generator(kind);
        long first = firstCommit(kind);
        long insertKeys = 0;
        for (long i = 0; i < first; i++) {
            insertKeys += Arrivals.checksum(generator.id(i));
        }
        long laterKeys = 0;
        for (long i = first; i < rows; i++) {
            laterKeys += Arrivals.checksum(generator.id(i));
        }
        return kind == Kind.APPEND
                ? new Expected(rows, insertKeys + laterKeys, 0, 0)
                : new Expected(first, insertKeys, rows - first, laterKeys);
    }

    /** One measured read of the table of {@code kind} in {@code system}. */
    StreamRun<Measurement> read(LakeSystem system, Kind kind, Expected expected) throws Exception {
        TableEnvironment env = SessionCluster.environment(true, 1);
        system.addCatalog(env);
        env.executeSql(
                "CREATE TEMPORARY TABLE "
                        + SINK
                        + " ("
                        + COLUMNS.replace(" NOT NULL", "")
                        + ") WITH ('connector' = 'bench-arrivals')");
        Arrivals arrivals = ArrivalSinkFactory.expect(SINK, expected.total(), false);
        long cpu0 = Measurement.processCpuNanos();
        long t0 = System.nanoTime();
        StreamingJob job;
        try {
            job =
                    StreamingJob.start(
                            env,
                            "INSERT INTO "
                                    + SINK
                                    + " SELECT * FROM "
                                    + system.table(kind.table)
                                    + READ_OPTIONS);
        } catch (StreamingJob.Refused e) {
            return StreamRun.fellShort(e.getMessage());
        }
        try (job) {
            Optional<String> all =
                    job.await(arrivals, () -> arrivals.total() >= arrivals.target(), STALL);
            long cpu1 = Measurement.processCpuNanos();
            if (all.isPresent()) {
                return StreamRun.fellShort(all.get());
            }
            Measurement measured =
                    new Measurement((arrivals.reachedAt() - t0) / 1e9, (cpu1 - cpu0) / 1e9);
            System.out.printf(
                    "  %s %s: first row after %.2f s, last after %.2f s%n",
                    system.name(),
                    kind.description,
                    (arrivals.firstAt() - t0) / 1e9,
                    measured.seconds());
            Thread.sleep(FreshnessBenchmark.SETTLE_MILLIS);
            check(arrivals, expected);
            return StreamRun.of(measured);
        }
    }

    private static void check(Arrivals arrivals, Expected expected) {
        Expected actual =
                new Expected(
                        arrivals.rows(RowKind.INSERT),
                        arrivals.keyChecksum(RowKind.INSERT),
                        arrivals.rows(RowKind.UPDATE_AFTER),
                        arrivals.keyChecksum(RowKind.UPDATE_AFTER));
        boolean updatesPaired =
                arrivals.rows(RowKind.UPDATE_BEFORE) == actual.updates()
                        && arrivals.keyChecksum(RowKind.UPDATE_BEFORE) == actual.updateKeys();
        if (!actual.equals(expected)
                || !updatesPaired
                || arrivals.rows(RowKind.DELETE) != 0
                || arrivals.total() != expected.total()) {
            throw new WrongResultException(
                    String.format(
                            "the sink received %,d +I (key checksum %d), %,d -U (%d), %,d +U"
                                    + " (%d), %,d -D; expected %,d +I (%d), %,d -U and +U (%d),"
                                    + " no -D",
                            actual.inserts(),
                            actual.insertKeys(),
                            arrivals.rows(RowKind.UPDATE_BEFORE),
                            arrivals.keyChecksum(RowKind.UPDATE_BEFORE),
                            actual.updates(),
                            actual.updateKeys(),
                            arrivals.rows(RowKind.DELETE),
                            expected.inserts(),
                            expected.insertKeys(),
                            expected.updates(),
                            expected.updateKeys()));
        }
    }
}
