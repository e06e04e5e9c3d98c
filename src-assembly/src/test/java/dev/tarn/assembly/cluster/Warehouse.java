package dev.tarn.assembly.cluster;

import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Where the cluster test's tables live, as one parameter: the warehouse URI with the extra catalog
 * options it needs, and the Flink configuration and plugins the cluster needs to reach it. A {@code
 * file://} directory that every process shares needs nothing more; an object store is an {@code
 * s3://} URI, its {@code s3.*} settings (as catalog options and in Flink's configuration, where its
 * file system plugin reads them) and the plugins directory. {@code endpoint} is where the test
 * itself reads snapshot objects (path-style, {@code null} for a local directory).
 */
record Warehouse(
        String uri,
        Map<String, String> catalogOptions,
        Map<String, String> flinkConfig,
        Path pluginsDir,
        String endpoint) {

    Warehouse {
        uri = uri.endsWith("/") ? uri.substring(0, uri.length() - 1) : uri;
        catalogOptions = Map.copyOf(catalogOptions);
        flinkConfig = Map.copyOf(flinkConfig);
    }

    /** A warehouse in a local directory, which the test's processes all see. */
    static Warehouse local(Path dir) {
        return new Warehouse(dir.toUri().toString(), Map.of(), Map.of(), null, null);
    }

    /**
     * A warehouse at {@code s3://<bucket>/<path>} on the server of {@code s3} (the {@code s3.*}
     * keys of Flink's S3 file systems, {@code s3.endpoint} among them), through the S3 plugin in
     * {@code pluginsDir}.
     */
    static Warehouse s3(String bucket, String path, Map<String, String> s3, Path pluginsDir) {
        String endpoint = s3.get("s3.endpoint");
        if (endpoint == null) {
            throw new IllegalArgumentException("S3 settings without s3.endpoint: " + s3.keySet());
        }
        return new Warehouse("s3://" + bucket + "/" + path, s3, s3, pluginsDir, endpoint);
    }

    /** The WITH clause of a Tarn catalog over this warehouse. */
    String catalogWith() {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("type", "tarn");
        options.put("warehouse", uri);
        options.putAll(new TreeMap<>(catalogOptions));
        return options.entrySet().stream()
                .map(e -> "'" + e.getKey() + "' = '" + e.getValue() + "'")
                .collect(Collectors.joining(", ", "(", ")"));
    }

    /** A table's published snapshots, read from the object store as the test sees them. */
    SnapshotObjects snapshots(String database, String table) {
        if (endpoint == null) {
            throw new IllegalStateException(
                    "Warehouse " + uri + " is no object store: the test reads snapshots from S3");
        }
        URI location = URI.create(uri);
        return new SnapshotObjects(
                URI.create(
                        endpoint
                                + "/"
                                + location.getHost()
                                + location.getPath()
                                + "/"
                                + database
                                + ".db/"
                                + table
                                + "/snapshot/"));
    }
}
