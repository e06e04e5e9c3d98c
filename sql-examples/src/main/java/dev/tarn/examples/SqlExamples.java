package dev.tarn.examples;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * Runs the example SQL scripts on an embedded Flink (a local MiniCluster that the table environment
 * starts) against a local warehouse, printing every statement and its result. The test suite runs
 * the same scripts and compares the results with checked-in expectations.
 */
public final class SqlExamples {

    /** The scripts, in the order they run. */
    static final List<String> SCRIPTS =
            List.of(
                    "01_append_table.sql",
                    "02_partitions_and_overwrite.sql",
                    "03_datagen.sql",
                    "04_primary_keys.sql",
                    "05_changes.sql",
                    "06_system_tables.sql",
                    "07_maintenance.sql",
                    "08_catalog.sql",
                    "09_deletion_vectors.sql",
                    "10_lookup_join.sql",
                    "11_iceberg_metadata.sql");

    public static void main(String[] args) throws Exception {
        Path warehouse =
                args.length > 0
                        ? Path.of(args[0])
                        : Files.createTempDirectory("tarn-examples-warehouse");
        System.out.println("Warehouse: " + warehouse.toUri());
        for (String script : SCRIPTS) {
            run(load(script, warehouse), System.out);
        }
        System.out.println("All " + SCRIPTS.size() + " example scripts ran.");
    }

    static SqlScript load(String script, Path warehouse) throws IOException {
        try (InputStream in = SqlExamples.class.getResourceAsStream("/examples/" + script)) {
            if (in == null) {
                throw new IOException("Example script " + script + " is missing");
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return SqlScript.parse(script, text, Map.of("warehouse", warehouse.toUri().toString()));
        }
    }

    /**
     * Runs every statement of {@code script} in a fresh batch table environment.
     *
     * @return the rows of each query, in the order returned, one string per row
     */
    static List<List<String>> run(SqlScript script, PrintStream out) throws Exception {
        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        List<List<String>> results = new ArrayList<>();
        out.println("== " + script.name());
        for (String statement : script.statements()) {
            out.println("\n> " + statement.replace("\n", "\n  ") + ";");
            TableResult result = env.executeSql(statement);
            if (!isQuery(statement)) {
                result.await();
                continue;
            }
            List<String> rows = new ArrayList<>();
            try (CloseableIterator<Row> it = result.collect()) {
                while (it.hasNext()) {
                    rows.add(it.next().toString());
                }
            }
            results.add(rows);
            rows.forEach(r -> out.println("  " + r));
        }
        return results;
    }

    static boolean isQuery(String statement) {
        String s = statement.stripLeading().toUpperCase();
        return s.startsWith("SELECT") || s.startsWith("WITH") || s.startsWith("SHOW");
    }

    private SqlExamples() {}
}
