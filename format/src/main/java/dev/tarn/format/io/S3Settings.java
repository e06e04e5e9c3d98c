package dev.tarn.format.io;

import java.io.Serializable;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.flink.configuration.ConfigOption;

/**
 * The settings of one S3 client ({@link S3Options} resolved against Flink's configuration): the key
 * under which {@link S3Clients} shares clients and caches probe results. Serializable, shipped with
 * a table to its tasks; its {@code toString} never shows the secret.
 */
record S3Settings(
        @Nullable String endpoint,
        boolean pathStyleAccess,
        @Nullable String accessKey,
        @Nullable String secretKey,
        String region)
        implements Serializable {

    S3Settings {
        if ((accessKey == null) != (secretKey == null)) {
            throw new IllegalArgumentException(
                    "Options '"
                            + S3Options.ACCESS_KEY.key()
                            + "' and '"
                            + S3Options.SECRET_KEY.key()
                            + "' go together: only "
                            + (accessKey == null ? "the secret key" : "the access key")
                            + " is set");
        }
    }

    /** {@code storeOptions} over Flink's configuration. */
    static S3Settings resolve(Map<String, String> storeOptions) {
        Map<String, String> s3 = S3Options.resolve(storeOptions);
        return new S3Settings(
                blankToNull(s3.get(S3Options.ENDPOINT.key())),
                Boolean.parseBoolean(
                        s3.getOrDefault(
                                S3Options.PATH_STYLE_ACCESS.key(),
                                String.valueOf(S3Options.PATH_STYLE_ACCESS.defaultValue()))),
                blankToNull(s3.get(S3Options.ACCESS_KEY.key())),
                blankToNull(s3.get(S3Options.SECRET_KEY.key())),
                s3.getOrDefault(S3Options.REGION.key(), S3Options.REGION.defaultValue()));
    }

    /** How messages name the store: its endpoint, or AWS's for the region. */
    String describeEndpoint() {
        return endpoint != null ? endpoint : "AWS S3 (" + region + ")";
    }

    /**
     * For the messages of failed requests: which of the endpoint and the credentials no key gave,
     * where the keys were looked for, and what was used instead; empty if keys gave both.
     */
    String unsetKeys() {
        String keys;
        String used;
        if (endpoint == null && accessKey == null) {
            keys = keyList(S3Options.ENDPOINT, S3Options.ACCESS_KEY, S3Options.SECRET_KEY);
            used = describeEndpoint() + " and AWS's default credential chain";
        } else if (endpoint == null) {
            keys = keyList(S3Options.ENDPOINT);
            used = describeEndpoint();
        } else if (accessKey == null) {
            keys = keyList(S3Options.ACCESS_KEY, S3Options.SECRET_KEY);
            used = "AWS's default credential chain";
        } else {
            return "";
        }
        return ". No "
                + keys
                + " was set in "
                + S3Options.describeSources()
                + ", so Tarn used "
                + used;
    }

    private static String keyList(ConfigOption<?>... options) {
        StringBuilder list = new StringBuilder();
        for (int i = 0; i < options.length; i++) {
            if (i > 0) {
                list.append(i == options.length - 1 ? " or " : ", ");
            }
            list.append('\'').append(options[i].key()).append('\'');
        }
        return list.toString();
    }

    @Override
    public String toString() {
        return "S3Settings[endpoint="
                + describeEndpoint()
                + ", pathStyleAccess="
                + pathStyleAccess
                + ", credentials="
                + (accessKey != null ? "access key " + accessKey : "default chain")
                + "]";
    }

    private static String blankToNull(@Nullable String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }
}
