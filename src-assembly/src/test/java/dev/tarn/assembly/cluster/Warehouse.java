package dev.tarn.assembly.cluster;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Where the cluster test's tables live, as one parameter: the warehouse URI with the extra catalog
 * options it needs, and the Flink configuration and plugins the cluster needs to reach it. The
 * default is a {@code file://} directory that every process shares; an object store is a URI, its
 * endpoint options and the file system plugin. {@code localRoot} is where the test itself looks at
 * snapshot files (a local directory; an object store would need its client here).
 */
record Warehouse(
        String uri,
        Map<String, String> catalogOptions,
        Map<String, String> flinkConfig,
        Path pluginsDir,
        Path localRoot) {

    Warehouse {
        uri = uri.endsWith("/") ? uri.substring(0, uri.length() - 1) : uri;
        catalogOptions = Map.copyOf(catalogOptions);
        flinkConfig = Map.copyOf(flinkConfig);
    }

    /** A warehouse in a local directory, which the test's processes all see. */
    static Warehouse local(Path dir) {
        return new Warehouse(dir.toUri().toString(), Map.of(), Map.of(), null, dir);
    }

    /** The WITH clause of a Tarn catalog over this warehouse. */
    String catalogWith() {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("type", "tarn");
        options.put("warehouse", uri);
        options.putAll(catalogOptions);
        return options.entrySet().stream()
                .map(e -> "'" + e.getKey() + "' = '" + e.getValue() + "'")
                .collect(Collectors.joining(", ", "(", ")"));
    }

    /** A table's snapshot directory, as the test reads it. */
    Path snapshotDir(String database, String table) {
        return localRoot.resolve(database + ".db").resolve(table).resolve("snapshot");
    }
}
