package dev.tarn.catalog;

import dev.tarn.format.io.S3Options;
import dev.tarn.format.snapshot.CommitLockOptions;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The options of {@code CREATE CATALOG ... WITH ('type' = 'tarn', ...)}. Read once by {@link
 * TarnCatalogFactory}; table options belong to the format ({@code TableOptions}), not here.
 */
public final class TarnCatalogOptions {

    public static final ConfigOption<String> WAREHOUSE =
            ConfigOptions.key("warehouse")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Absolute URI of the directory that holds the catalog's databases,"
                                    + " e.g. 'file:///data/lake' or 's3://bucket/lake'. Each"
                                    + " database is a directory '<name>.db' in it, each table a"
                                    + " directory in its database.");

    public static final ConfigOption<String> DEFAULT_DATABASE =
            ConfigOptions.key("default-database")
                    .stringType()
                    .defaultValue("default")
                    .withDescription(
                            "The database a session starts in; created when the catalog opens if"
                                    + " it does not exist.");

    /**
     * How the catalog's commits reach an S3-compatible store ({@code s3.endpoint}, {@code
     * s3.path.style.access}, {@code s3.access-key}, {@code s3.secret-key}, {@code s3.region}): the
     * keys of Flink's S3 file systems, defined in their own holder; given here, they win over
     * Flink's configuration.
     */
    public static final List<ConfigOption<?>> S3 = S3Options.all();

    /**
     * Table options a catalog may also take, for all of its tables: each table that does not store
     * its own value gets the catalog's, in every job, ALTER and procedure. The commit lock is one:
     * every committer of a table must take the same lock, and its password is better kept out of
     * schema files.
     */
    public static List<ConfigOption<?>> tableOptions() {
        return CommitLockOptions.all();
    }

    /** Every option of {@code CREATE CATALOG}, in the order the README lists them. */
    public static List<ConfigOption<?>> all() {
        List<ConfigOption<?>> all = new ArrayList<>(List.of(WAREHOUSE, DEFAULT_DATABASE));
        all.addAll(tableOptions());
        all.addAll(S3);
        return all;
    }

    private TarnCatalogOptions() {}
}
