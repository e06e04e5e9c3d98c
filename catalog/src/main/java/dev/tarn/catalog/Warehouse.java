package dev.tarn.catalog;

import dev.tarn.format.Table;
import dev.tarn.format.io.FileIO;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.CatalogException;

/**
 * The directory layout of a catalog: database {@code d} is the directory {@code <warehouse>/d.db},
 * table {@code d.t} the directory {@code <warehouse>/d.db/t}. A directory is a table only if it
 * holds a schema file, so a half-created or foreign directory is never listed. Names must be one
 * safe path segment; any other name is rejected before a path is built.
 */
final class Warehouse {

    /** Marks a database directory, so the warehouse may hold other directories too. */
    private static final String DATABASE_SUFFIX = ".db";

    private final FileIO io;
    private final Path root;
    private final String catalog;

    private Warehouse(FileIO io, Path root, String catalog) {
        this.io = io;
        this.root = root;
        this.catalog = catalog;
    }

    /**
     * Opens the warehouse at {@code root}, creating it if missing, and proves it writable by
     * creating and deleting a probe file, and that the table's atomic publish step works there (on
     * an object store: reachable, and honouring conditional puts).
     *
     * @throws CatalogException naming the catalog, the warehouse and the reason otherwise
     */
    static Warehouse open(FileIO io, Path root, String catalog) {
        Path qualified = root;
        try {
            if (root.toUri().getScheme() == null) {
                qualified = root.makeQualified(root.getFileSystem());
            }
            io.mkdirs(qualified);
            Path probe = new Path(qualified, ".tarn-write-check-" + UUID.randomUUID());
            io.newOutputStream(probe).close();
            io.delete(probe, false);
            Table.checkPublishable(io, qualified);
        } catch (IOException | RuntimeException e) {
            throw new CatalogException(
                    String.format(
                            "Cannot open catalog %s: warehouse %s cannot be created or written:"
                                    + " %s",
                            catalog, root, e),
                    e);
        }
        return new Warehouse(io, qualified, catalog);
    }

    FileIO io() {
        return io;
    }

    Path root() {
        return root;
    }

    Path databasePath(String database) {
        checkName("database", database);
        return new Path(root, database + DATABASE_SUFFIX);
    }

    Path tablePath(ObjectPath table) {
        checkName("table", table.getObjectName());
        return new Path(databasePath(table.getDatabaseName()), table.getObjectName());
    }

    List<String> databases() {
        List<String> names = new ArrayList<>();
        for (FileStatus status : list(root, "databases")) {
            String name = status.getPath().getName();
            if (status.isDir()
                    && name.endsWith(DATABASE_SUFFIX)
                    && name.length() > DATABASE_SUFFIX.length()) {
                names.add(name.substring(0, name.length() - DATABASE_SUFFIX.length()));
            }
        }
        names.sort(null);
        return names;
    }

    boolean databaseExists(String database) {
        return isDirectory(databasePath(database), "database " + database);
    }

    void createDatabase(String database) {
        run("create database " + database, () -> io.mkdirs(databasePath(database)));
    }

    /** Deletes the database directory with everything in it. */
    void deleteDatabase(String database) {
        run("drop database " + database, () -> io.delete(databasePath(database), true));
    }

    List<String> tables(String database) {
        List<String> names = new ArrayList<>();
        for (FileStatus status : list(databasePath(database), "tables of database " + database)) {
            String name = status.getPath().getName();
            if (status.isDir()
                    && !name.startsWith(".")
                    && Table.exists(io, status.getPath(), name)) {
                names.add(name);
            }
        }
        names.sort(null);
        return names;
    }

    boolean tableExists(ObjectPath table) {
        return Table.exists(io, tablePath(table), table.getFullName());
    }

    void deleteTable(ObjectPath table) {
        run("drop table " + table.getFullName(), () -> io.delete(tablePath(table), true));
    }

    /**
     * Moves a table's directory; the table's files are addressed relative to it, so nothing inside
     * needs rewriting.
     *
     * @return false if something already occupies the target directory
     */
    boolean renameTable(ObjectPath from, ObjectPath to) {
        try {
            return io.rename(tablePath(from), tablePath(to));
        } catch (IOException e) {
            throw new CatalogException(
                    String.format(
                            "Cannot rename table %s to %s in catalog %s: %s",
                            from.getFullName(), to.getFullName(), catalog, e.getMessage()),
                    e);
        }
    }

    private boolean isDirectory(Path path, String what) {
        try {
            return io.exists(path) && io.status(path).isDir();
        } catch (IOException e) {
            throw failure("check " + what, e);
        }
    }

    private FileStatus[] list(Path dir, String what) {
        try {
            return io.list(dir);
        } catch (IOException e) {
            throw failure("list " + what, e);
        }
    }

    private void run(String action, IoAction body) {
        try {
            body.run();
        } catch (IOException e) {
            throw failure(action, e);
        }
    }

    private CatalogException failure(String action, IOException e) {
        return new CatalogException(
                String.format(
                        "Cannot %s in catalog %s (warehouse %s): %s",
                        action, catalog, root, e.getMessage()),
                e);
    }

    /** Rejects names that are not exactly one directory name inside their parent. */
    private void checkName(String kind, String name) {
        boolean bad =
                name.isEmpty()
                        || name.startsWith(".")
                        || name.chars().anyMatch(c -> c == '/' || c == '\\' || c == ':' || c < 32);
        if (bad) {
            throw new CatalogException(
                    String.format(
                            "Invalid %s name '%s' in catalog %s: a name must not be empty, start"
                                    + " with '.', or contain '/', '\\', ':' or control characters",
                            kind, name, catalog));
        }
    }

    /** A file-system step that may fail. */
    private interface IoAction {
        void run() throws IOException;
    }
}
