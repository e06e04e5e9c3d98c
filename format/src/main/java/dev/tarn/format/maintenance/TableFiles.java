package dev.tarn.format.maintenance;

import dev.tarn.format.io.TablePaths;
import dev.tarn.format.schema.IcebergOptions;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;

/**
 * The files under a table's directory that orphan cleanup may consider, found by listing each
 * directory once: every file in {@code manifest/} (manifests, lists and index manifests), in {@code
 * index/} (index files of deletion vectors) and in the partition and bucket directories, and the
 * temporary files of atomic writes ({@code .}-names) anywhere, and every file in {@code metadata/}
 * of a table with Iceberg metadata. Snapshot, schema, consumer, tag and pending-commit files, the
 * hints, and directories Tarn does not write are never listed as candidates.
 */
final class TableFiles {

    /**
     * Directories of metadata that is live by existing (the ledger of pending commits, a file per
     * commit user, among them): only their temporary files are listed.
     */
    private static final Set<String> METADATA_DIRS =
            Set.of("snapshot", "schema", "consumer", "tag", "pending");

    /** Directories of files that are live only while a root names them: all are listed. */
    private static final Set<String> NAMED_DIRS = Set.of("manifest", "index");

    /**
     * The Iceberg metadata of a table that has it on: listed like the named directories (a table
     * with it off leaves the directory alone, as Tarn never reads it).
     */
    private static final String ICEBERG_DIR = "metadata";

    /** A listed file: its table-relative key, where it is, its size and modification time. */
    record Listed(String key, Path path, long size, long modifiedMillis) {}

    private TableFiles() {}

    /** The candidates of {@code table}, listed now. */
    static List<Listed> candidates(TableContext table) {
        List<Listed> found = new ArrayList<>();
        Path location = table.location();
        for (FileStatus child : list(table, location)) {
            String name = child.getPath().getName();
            if (!child.isDir()) {
                addIf(found, location, child, isTemporary(name));
            } else if (METADATA_DIRS.contains(name)) {
                for (FileStatus file : list(table, child.getPath())) {
                    addIf(
                            found,
                            location,
                            file,
                            !file.isDir() && isTemporary(file.getPath().getName()));
                }
            } else if (NAMED_DIRS.contains(name)
                    || (name.equals(ICEBERG_DIR)
                            && table.config().iceberg() != IcebergOptions.Storage.DISABLED)) {
                for (FileStatus file : list(table, child.getPath())) {
                    addIf(found, location, file, !file.isDir());
                }
            } else if (isDataDir(name)) {
                walkData(table, child.getPath(), found);
            }
        }
        return found;
    }

    /** Every file below a partition or bucket directory. */
    private static void walkData(TableContext table, Path dir, List<Listed> found) {
        for (FileStatus child : list(table, dir)) {
            if (!child.isDir()) {
                addIf(found, table.location(), child, true);
            } else if (isDataDir(child.getPath().getName())) {
                walkData(table, child.getPath(), found);
            }
        }
    }

    /** Partition directories are {@code k=v}; bucket directories {@code bucket-<n>}. */
    private static boolean isDataDir(String name) {
        return name.contains("=") || name.startsWith("bucket-");
    }

    /** A temporary file of an atomic write (SPEC.md, "Layout"). */
    private static boolean isTemporary(String name) {
        return name.startsWith(".");
    }

    private static void addIf(List<Listed> found, Path location, FileStatus file, boolean add) {
        if (add) {
            found.add(
                    new Listed(
                            key(location, file.getPath()),
                            file.getPath(),
                            file.getLen(),
                            file.getModificationTime()));
        }
    }

    private static FileStatus[] list(TableContext table, Path dir) {
        try {
            return table.io().list(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot list " + dir + " of table " + table.name() + ": " + e.getMessage(), e);
        }
    }

    /** The path of {@code file} relative to the table directory {@code location}. */
    static String key(Path location, Path file) {
        return TablePaths.of(location).relative(file);
    }
}
