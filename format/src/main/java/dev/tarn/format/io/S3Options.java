package dev.tarn.format.io;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.ConfigConstants;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.fs.Path;

/**
 * How Tarn reaches an S3-compatible store for its atomic commit step (the conditional put of {@code
 * snapshot-<n>}): the keys of Flink's own S3 file systems, so one set of settings in Flink's
 * configuration serves Flink's S3 plugin (data files) and the commit path. Each key is taken from
 * the first of: a catalog's options, the Flink configuration given to the catalog or table factory
 * (a session's {@code SET}, an embedded program's {@code Configuration}), and the {@code
 * config.yaml} of {@code FLINK_CONF_DIR}. No key set: AWS's endpoint for the region and the default
 * credential chain.
 */
public final class S3Options {

    /** The schemes of Flink's S3 file systems: both plugins, and each one's own name. */
    private static final Set<String> SCHEMES = Set.of("s3", "s3a", "s3p");

    public static final ConfigOption<String> ENDPOINT =
            ConfigOptions.key("s3.endpoint")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "URL of the S3-compatible endpoint, e.g. 'http://127.0.0.1:9000' for"
                                    + " MinIO; AWS's endpoint for the region when not set.");

    public static final ConfigOption<Boolean> PATH_STYLE_ACCESS =
            ConfigOptions.key("s3.path.style.access")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Address buckets as 'endpoint/bucket/key' instead of"
                                    + " 'bucket.endpoint/key'; most self-hosted stores need it.");

    public static final ConfigOption<String> ACCESS_KEY =
            ConfigOptions.key("s3.access-key")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Access key id; with 's3.secret-key'. When not set, the AWS default"
                                    + " credential chain (environment, profile, instance role).");

    public static final ConfigOption<String> SECRET_KEY =
            ConfigOptions.key("s3.secret-key")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("Secret access key belonging to 's3.access-key'.");

    public static final ConfigOption<String> REGION =
            ConfigOptions.key("s3.region")
                    .stringType()
                    .defaultValue("us-east-1")
                    .withDescription(
                            "Region that requests are signed for; self-hosted stores accept the"
                                    + " default.");

    private static volatile Map<String, String> flinkConfiguration;

    private S3Options() {}

    /** Every option, for catalog factories and documentation. */
    public static List<ConfigOption<?>> all() {
        return List.of(ENDPOINT, PATH_STYLE_ACCESS, ACCESS_KEY, SECRET_KEY, REGION);
    }

    /** Whether {@code location} lies on an S3-compatible object store (by its scheme). */
    public static boolean isObjectStore(Path location) {
        String scheme = location.toUri().getScheme();
        return scheme != null && SCHEMES.contains(scheme.toLowerCase(java.util.Locale.ROOT));
    }

    /**
     * The S3 keys of {@code options} (a catalog's, say), for {@link FileIO#flinkFileSystems(Map)};
     * other keys are left out.
     */
    public static Map<String, String> of(Map<String, String> options) {
        Map<String, String> s3 = new HashMap<>();
        for (ConfigOption<?> option : all()) {
            String value = options.get(option.key());
            if (value != null) {
                s3.put(option.key(), value);
            }
        }
        return s3;
    }

    /** The S3 keys set in a Flink configuration (a session's, an embedded program's). */
    public static Map<String, String> of(ReadableConfig configuration) {
        return of(configuration.toMap());
    }

    /** Where {@link #resolve} and the factories look for the keys, for messages. */
    static String describeSources() {
        String confDir = System.getenv(ConfigConstants.ENV_FLINK_CONF_DIR);
        return "the catalog's options, the Flink configuration given to the catalog or table (a"
                + " session's SET, an embedded program's Configuration) and the config.yaml of "
                + ConfigConstants.ENV_FLINK_CONF_DIR
                + (confDir == null ? " (not set)" : " " + confDir);
    }

    /**
     * The settings in force for the commit path: Flink's configuration (the {@code
     * flink-conf}/{@code config.yaml} of {@code FLINK_CONF_DIR}, as Flink's S3 plugin reads it),
     * with {@code overrides} over it.
     */
    public static Map<String, String> resolve(Map<String, String> overrides) {
        Map<String, String> merged = new HashMap<>(of(flinkConfiguration()));
        merged.putAll(of(overrides));
        return merged;
    }

    /** Flink's configuration of this process (none outside a Flink process), loaded once. */
    private static Map<String, String> flinkConfiguration() {
        Map<String, String> map = flinkConfiguration;
        if (map == null) {
            try {
                map =
                        System.getenv(ConfigConstants.ENV_FLINK_CONF_DIR) == null
                                ? Map.of()
                                : Map.copyOf(GlobalConfiguration.loadConfiguration().toMap());
            } catch (RuntimeException unreadable) {
                map = Map.of();
            }
            flinkConfiguration = map;
        }
        return map;
    }
}
