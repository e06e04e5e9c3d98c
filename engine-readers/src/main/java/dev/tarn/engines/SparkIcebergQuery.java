package dev.tarn.engines;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Reads tables as Apache Iceberg tables with Apache Spark in local mode, as an analyst's Spark
 * session would, and prints the rows of each query as stable text. Run in a JVM of its own (Spark's
 * class path never meets Flink's); its arguments are steps, run in order:
 *
 * <ul>
 *   <li>{@code --warehouse DIR}: a Hadoop catalog {@code local} over DIR (for tables Spark writes);
 *   <li>{@code --view NAME=LOCATION}: a temporary view NAME over the Iceberg table at LOCATION (a
 *       path table: its {@code metadata/} directory and version hint), loaded when the step runs;
 *   <li>{@code --sql STATEMENT}: runs STATEMENT, its rows discarded;
 *   <li>{@code --query STATEMENT}: runs STATEMENT and prints a line {@code == query N, M ms} (N
 *       from 1, M the milliseconds from planning to the last row collected), then its rows, sorted,
 *       one a line, as {@link SparkRows} formats them.
 * </ul>
 *
 * Standard output holds only those lines (Spark's own output goes to standard error); any failure
 * ends the JVM with exit code 1 and the stack trace on standard error.
 */
public final class SparkIcebergQuery {

    /** Spark runs its tasks on this many threads: small tables, a shared machine. */
    private static final String MASTER = "local[2]";

    /** Partitions of a shuffle: Spark's 200 would start 200 tasks for a few rows. */
    private static final String SHUFFLE_PARTITIONS = "2";

    public static void main(String[] args) {
        // Before any Spark class starts logging: warnings only, to standard error.
        System.setProperty(
                "log4j2.configurationFile",
                SparkIcebergQuery.class.getResource("log4j2-spark.properties").toString());
        PrintStream rows = System.out;
        // Whatever Spark or a library prints goes to standard error, so standard output holds
        // the rows alone.
        System.setOut(System.err);
        try {
            List<Step> steps = Step.parse(args);
            run(steps, rows);
        } catch (Throwable e) {
            e.printStackTrace(System.err);
            System.exit(1);
        }
        rows.flush();
        System.exit(0);
    }

    private static void run(List<Step> steps, PrintStream out) throws Exception {
        Path scratch = Files.createTempDirectory("tarn-spark");
        SparkSession.Builder builder =
                SparkSession.builder()
                        .master(MASTER)
                        .appName("tarn-iceberg-reader")
                        .config("spark.ui.enabled", "false")
                        .config("spark.driver.host", "127.0.0.1")
                        .config("spark.driver.bindAddress", "127.0.0.1")
                        .config("spark.ui.showConsoleProgress", "false")
                        .config("spark.sql.shuffle.partitions", SHUFFLE_PARTITIONS)
                        .config("spark.default.parallelism", SHUFFLE_PARTITIONS)
                        .config("spark.sql.warehouse.dir", scratch.resolve("spark").toString())
                        // java.time values (Instant, LocalDate, LocalDateTime), as Flink prints
                        .config("spark.sql.datetime.java8API.enabled", "true")
                        .config("spark.sql.session.timeZone", "UTC")
                        .config(
                                "spark.sql.extensions",
                                "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
                        // Path tables load through Iceberg's default catalog, a Hive catalog
                        // unless told otherwise; a Hadoop one needs no metastore.
                        .config(
                                "spark.sql.catalog.default_iceberg",
                                "org.apache.iceberg.spark.SparkCatalog")
                        .config("spark.sql.catalog.default_iceberg.type", "hadoop")
                        .config(
                                "spark.sql.catalog.default_iceberg.warehouse",
                                scratch.resolve("iceberg").toString());
        for (Step step : steps) {
            if (step.kind() == Step.Kind.WAREHOUSE) {
                builder.config("spark.sql.catalog.local", "org.apache.iceberg.spark.SparkCatalog")
                        .config("spark.sql.catalog.local.type", "hadoop")
                        .config("spark.sql.catalog.local.warehouse", step.value());
            }
        }
        SparkSession spark = builder.getOrCreate();
        try {
            int query = 0;
            for (Step step : steps) {
                switch (step.kind()) {
                    case WAREHOUSE -> {}
                    case VIEW -> {
                        int eq = step.value().indexOf('=');
                        spark.read()
                                .format("iceberg")
                                .load(step.value().substring(eq + 1))
                                .createOrReplaceTempView(step.value().substring(0, eq));
                    }
                    case SQL -> spark.sql(step.value()).collectAsList();
                    case QUERY -> {
                        List<String> lines = new ArrayList<>();
                        long start = System.nanoTime();
                        List<Row> result = spark.sql(step.value()).collectAsList();
                        long millis = (System.nanoTime() - start) / 1_000_000;
                        for (Row row : result) {
                            lines.add(SparkRows.format(row));
                        }
                        lines.sort(null);
                        out.println("== query " + ++query + ", " + millis + " ms");
                        lines.forEach(out::println);
                    }
                }
            }
            out.flush();
        } finally {
            spark.stop();
            try (Stream<Path> files = Files.walk(scratch)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** One step of the command line. */
    record Step(Kind kind, String value) {

        enum Kind {
            WAREHOUSE("--warehouse"),
            VIEW("--view"),
            SQL("--sql"),
            QUERY("--query");

            final String flag;

            Kind(String flag) {
                this.flag = flag;
            }
        }

        Step {
            if (kind == Kind.VIEW && value.indexOf('=') < 1) {
                throw new IllegalArgumentException(
                        "Invalid --view " + value + ": expected NAME=LOCATION");
            }
        }

        static List<Step> parse(String[] args) {
            List<Step> steps = new ArrayList<>();
            for (int i = 0; i < args.length; i++) {
                Kind kind = null;
                for (Kind k : Kind.values()) {
                    if (k.flag.equals(args[i])) {
                        kind = k;
                    }
                }
                if (kind == null) {
                    throw new IllegalArgumentException(
                            "Unknown argument "
                                    + args[i]
                                    + ": expected --warehouse, --view, --sql or --query");
                }
                if (i + 1 == args.length) {
                    throw new IllegalArgumentException("Missing value of " + args[i]);
                }
                steps.add(new Step(kind, args[++i]));
            }
            if (steps.stream().noneMatch(s -> s.kind() == Kind.QUERY)) {
                throw new IllegalArgumentException("Nothing to print: no --query among the steps");
            }
            return steps;
        }
    }

    private SparkIcebergQuery() {}
}
