package dev.tarn.format.io;

import java.io.Serializable;
import org.apache.flink.core.fs.Path;

/**
 * Where every file of a table lives (SPEC.md, "Layout"): schema files, snapshot files and their
 * hints, manifests and manifest lists, and the bucket directories of data files. The one place that
 * knows the layout; everything else asks it.
 *
 * @param location the table's directory
 */
public record TablePaths(Path location) implements Serializable {

    private static final String SCHEMA_DIR = "schema";
    private static final String SNAPSHOT_DIR = "snapshot";
    private static final String MANIFEST_DIR = "manifest";
    private static final String CONSUMER_DIR = "consumer";
    private static final String TAG_DIR = "tag";
    private static final String INDEX_DIR = "index";
    private static final String PENDING_DIR = "pending";

    public static TablePaths of(Path location) {
        return new TablePaths(location);
    }

    public Path schemaDir() {
        return new Path(location, SCHEMA_DIR);
    }

    public Path snapshotDir() {
        return new Path(location, SNAPSHOT_DIR);
    }

    /** Manifests and manifest lists share one directory; their names tell them apart. */
    public Path manifestDir() {
        return new Path(location, MANIFEST_DIR);
    }

    /** Where streaming readers record their progress, one file per consumer id. */
    public Path consumerDir() {
        return new Path(location, CONSUMER_DIR);
    }

    /** Where tags live, one file per tag name. */
    public Path tagDir() {
        return new Path(location, TAG_DIR);
    }

    /** Where index files of deletion vectors live (SPEC.md, "Deletion vectors"). */
    public Path indexDir() {
        return new Path(location, INDEX_DIR);
    }

    /**
     * Where the ledger of prepared files lives (SPEC.md, "Pending commits"): a directory per commit
     * user, a record per checkpoint whose commit has not been seen published.
     */
    public Path pendingDir() {
        return new Path(location, PENDING_DIR);
    }

    /**
     * The path of {@code file} relative to the table directory, from the decoded URI paths of both,
     * so that a listed file and a file named by metadata compare equal however their scheme and
     * authority are spelled.
     *
     * @throws IllegalArgumentException if {@code file} is not below the table directory
     */
    public String relative(Path file) {
        String base = location.toUri().getPath();
        String path = file.toUri().getPath();
        String prefix = base.endsWith("/") ? base : base + "/";
        if (!path.startsWith(prefix)) {
            throw new IllegalArgumentException(
                    "File " + file + " is not below the table directory " + location);
        }
        return path.substring(prefix.length());
    }

    /**
     * The directory of one bucket.
     *
     * @param partitionPath the partition's relative directory ({@code k1=v1/k2=v2}), empty for an
     *     unpartitioned table
     */
    public Path bucketDir(String partitionPath, int bucket) {
        Path partitionDir = partitionPath.isEmpty() ? location : new Path(location, partitionPath);
        return new Path(partitionDir, "bucket-" + bucket);
    }
}
