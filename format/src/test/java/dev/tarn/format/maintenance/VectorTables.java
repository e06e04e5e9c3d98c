package dev.tarn.format.maintenance;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.deletion.DeletionVector;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.IndexEntry;
import dev.tarn.format.manifest.ManifestEntry.FileId;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.manifest.VectorChange;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.Tags.Tag;
import dev.tarn.format.table.TableContext;
import dev.tarn.format.write.CommitMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * Primary-key tables with deletion vectors for the maintenance tests, built through the format API
 * as a vector writer leaves them (the tests make the vectors, so the option stays off and the
 * writers leave rows as they are given): each commit adds the files of some rows and, in the same
 * message, marks rows of earlier files deleted. One bucket; the table's rows are read as text.
 */
final class VectorTables {

    /** {@code (id BIGINT NOT NULL, v STRING)}, keyed by {@code id}. */
    static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {new BigIntType(false), VarCharType.STRING_TYPE},
                    new String[] {"id", "v"});

    private VectorTables() {}

    static Table create(java.nio.file.Path dir) {
        return Table.create(
                FileIO.flinkFileSystems(),
                new Path(dir.toUri()),
                TestTables.NAME,
                TableSchema.create(
                        TYPE,
                        List.of(),
                        List.of("id"),
                        // Writers never compact: each commit holds just what a test wrote. The
                        // tests mark rows themselves, so the writers do not keep vectors.
                        Map.of("bucket", "1", "write-only", "true"),
                        null));
    }

    /**
     * Commits the rows {@code ids} (value {@code "v<id>"}) as user {@code "writer"} with {@code
     * identifier}, and in the same message marks {@code positions} of {@code file} deleted on top
     * of its vector (no mark if {@code file} is null).
     *
     * @return the data file the rows went to
     */
    static DataFile commit(
            Table table, long identifier, List<Long> ids, String file, long... positions) {
        List<RowData> rows = new ArrayList<>();
        for (long id : ids) {
            rows.add(TestTables.row(id, "v" + id));
        }
        CommitMessage written = TestTables.write(table, rows).get(0);
        CommitMessage message =
                file == null ? written : written.withVectors(List.of(mark(table, file, positions)));
        TestTables.commit(table, "writer", CommitRequest.of(identifier, List.of(message)));
        return written.newFiles().get(0);
    }

    /** Commits only the mark of {@code positions} of {@code file}, as user {@code user}. */
    static DeletionFile delete(
            Table table, String user, long identifier, String file, long... positions) {
        VectorChange change = mark(table, file, positions);
        CommitMessage message =
                new CommitMessage(Partition.EMPTY, 0, 1, List.of(), List.of())
                        .withVectors(List.of(change));
        TestTables.commit(table, user, CommitRequest.of(identifier, List.of(message)));
        return change.after();
    }

    /** The change that adds {@code positions} to the latest vector of {@code file}. */
    private static VectorChange mark(Table table, String file, long... positions) {
        TableContext context = TableInternals.context(table);
        DeletionFile before = vectors(table).get(fileId(file));
        DeletionVector vector = DeletionVector.of(positions);
        try {
            if (before != null) {
                vector.merge(context.indexFiles().read(file, before));
            }
            DeletionFile after = context.indexFiles().write(Map.of(file, vector)).get(file);
            return new VectorChange(file, before, after);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static FileId fileId(String file) {
        return new FileId(Partition.EMPTY, 0, file);
    }

    /** The vectors of the latest snapshot. */
    static Map<FileId, DeletionFile> vectors(Table table) {
        TableContext context = TableInternals.context(table);
        return context.snapshotReader()
                .latest()
                .map(s -> context.snapshotReader().vectors(s))
                .orElse(Map.of());
    }

    /** The index manifest snapshot {@code id} names. */
    static String indexManifest(Table table, long id) {
        return TableInternals.context(table).snapshotManager().snapshot(id).indexManifest();
    }

    /** The index files on disk, by name. */
    static Set<String> indexFilesOnDisk(java.nio.file.Path dir) {
        return names(dir.resolve("index"), n -> true);
    }

    /** The index manifests on disk, by name. */
    static Set<String> indexManifestsOnDisk(java.nio.file.Path dir) {
        return names(dir.resolve("manifest"), n -> n.startsWith("index-manifest-"));
    }

    private static Set<String> names(java.nio.file.Path dir, Predicate<String> accept) {
        if (!Files.isDirectory(dir)) {
            return Set.of();
        }
        try (Stream<java.nio.file.Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> !n.startsWith(".") && accept.test(n))
                    .collect(Collectors.toCollection(TreeSet::new));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The index files the vectors of the existing snapshots and of the tags name, read here from
     * their index manifests independently of the code under test.
     */
    static Set<String> referencedIndexFiles(Table table) {
        TableContext context = TableInternals.context(table);
        Set<String> names = new TreeSet<>();
        for (Snapshot s : roots(table)) {
            for (IndexEntry e : context.snapshotReader().indexEntries(s)) {
                names.add(e.vector().indexFile());
            }
        }
        return names;
    }

    /** The index manifests the existing snapshots and the tags name. */
    static Set<String> referencedIndexManifests(Table table) {
        Set<String> names = new TreeSet<>();
        for (Snapshot s : roots(table)) {
            if (s.indexManifest() != null) {
                names.add(s.indexManifest());
            }
        }
        return names;
    }

    private static List<Snapshot> roots(Table table) {
        TableContext context = TableInternals.context(table);
        List<Snapshot> all = new ArrayList<>();
        for (long id : LifecycleTables.snapshotIds(table)) {
            all.add(context.snapshotManager().snapshot(id));
        }
        context.tags().list().stream().map(Tag::snapshot).forEach(all::add);
        return all;
    }
}
