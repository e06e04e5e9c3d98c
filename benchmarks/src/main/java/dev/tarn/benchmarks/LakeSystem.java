package dev.tarn.benchmarks;

import org.apache.flink.table.api.TableEnvironment;

/**
 * A table format under test in the streaming-read benchmarks, over one warehouse: a SQL catalog for
 * its tables, and a writer through its own Java API in this JVM, so the moment a commit is
 * published is known. Both systems run the same SQL against their catalog; only these differ.
 */
public interface LakeSystem {

    /** The database every benchmark table is in. */
    String DATABASE = "bench";

    /** How the report names it: {@code tarn} or {@code paimon}. */
    String name();

    /** The name of its catalog in SQL. */
    String catalog();

    /** The URI of its warehouse, without a trailing slash. */
    String warehouse();

    /** Registers its catalog, with database {@value #DATABASE}, in {@code env}. */
    default void addCatalog(TableEnvironment env) {
        env.executeSql(
                String.format(
                        "CREATE CATALOG %s WITH ('type' = '%s', 'warehouse' = '%s')",
                        catalog(), name(), warehouse()));
        env.executeSql("CREATE DATABASE IF NOT EXISTS " + catalog() + "." + DATABASE);
    }

    /** {@code table} of database {@value #DATABASE} as SQL names it. */
    default String table(String table) {
        return catalog() + "." + DATABASE + "." + table;
    }

    /** A writer of {@code table} (of database {@value #DATABASE}), which must exist. */
    InProcessWriter writer(String table) throws Exception;

    /**
     * Apache Paimon over {@code warehouse}: its classes are compiled and on the class path only
     * with the {@code paimon} Maven profile.
     */
    static LakeSystem paimon(String warehouse) throws Exception {
        Class<?> paimon;
        try {
            paimon = Class.forName("dev.tarn.benchmarks.paimon.PaimonSystem");
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(
                    "--paimon needs Apache Paimon's classes: build and run the benchmarks with"
                            + " the paimon Maven profile (-Pbench,paimon)",
                    e);
        }
        return (LakeSystem) paimon.getConstructor(String.class).newInstance(warehouse);
    }
}
