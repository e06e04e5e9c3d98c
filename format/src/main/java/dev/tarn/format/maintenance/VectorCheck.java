package dev.tarn.format.maintenance;

import dev.tarn.format.deletion.DeletionVector;
import dev.tarn.format.maintenance.ReferencedFiles.Named;
import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.IndexEntry;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.flink.core.fs.FileStatus;

/**
 * Finds what is wrong with the deletion vectors of a walk's roots (SPEC.md, "Integrity check"): an
 * index file that is missing; a vector that does not read (truncated, a bad checksum, another
 * cardinality than its index manifest records) or deletes a row past the end of its data file, both
 * reported on the index file; and a vector of a data file that is not live in a snapshot whose
 * index manifest names it, reported on the index manifest. Each problem names the data file. Lists
 * the index directory once and reads each vector once, however many snapshots share it.
 */
final class VectorCheck {

    private final TableContext table;
    private final ReferencedFiles walk;
    private final Set<String> present;

    /** The data files of each index file found missing, by its key. */
    private final Map<String, Set<String>> missing = new LinkedHashMap<>();

    /** The other problems by file key, each file's in the order found, none twice. */
    private final Map<String, Set<String>> found = new LinkedHashMap<>();

    private VectorCheck(TableContext table, ReferencedFiles walk) {
        this.table = table;
        this.walk = walk;
        this.present = listIndexFiles(table);
    }

    /** The problems, by key: what is wrong with each index file and index manifest. */
    static Map<String, String> problems(
            TableContext table, ReferencedFiles walk, List<Snapshot> roots) {
        VectorCheck check = new VectorCheck(table, walk);
        Map<String, List<Snapshot>> byIndexManifest = new LinkedHashMap<>();
        for (Snapshot s : roots) {
            if (s.indexManifest() != null) {
                byIndexManifest.computeIfAbsent(s.indexManifest(), m -> new ArrayList<>()).add(s);
            }
        }
        Set<IndexEntry> read = new HashSet<>();
        for (List<Snapshot> sharing : byIndexManifest.values()) {
            List<IndexEntry> vectors = walk.vectors(sharing.get(0));
            for (IndexEntry vector : vectors) {
                if (read.add(vector)) {
                    check.vector(vector);
                }
            }
            check.liveness(sharing, vectors);
        }
        Map<String, String> problems = new LinkedHashMap<>();
        check.missing.forEach((key, dataFiles) -> problems.put(key, missingText(dataFiles)));
        check.found.forEach((key, texts) -> problems.put(key, String.join("; ", texts)));
        return problems;
    }

    /** Checks that the index file of {@code vector} is there and the vector reads and fits. */
    private void vector(IndexEntry vector) {
        String indexKey = walk.indexFileKey(vector);
        DeletionFile place = vector.vector();
        if (!present.contains(place.indexFile())) {
            missing.computeIfAbsent(indexKey, k -> new TreeSet<>()).add(vector.dataFile());
            return;
        }
        DeletionVector deleted;
        try {
            deleted = table.indexFiles().read(vector.dataFile(), place);
        } catch (IOException | RuntimeException e) {
            report(indexKey, e.getMessage());
            return;
        }
        Named data = walk.named().get(walk.dataFileKey(vector));
        if (data != null && data.rows() >= 0) {
            long past = deleted.nextDeleted(data.rows());
            if (past >= 0) {
                report(
                        indexKey,
                        String.format(
                                "deletion vector of data file %s deletes row %d, past the %d rows"
                                        + " of the file",
                                vector.dataFile(), past, data.rows()));
            }
        }
    }

    private static String missingText(Set<String> dataFiles) {
        return (dataFiles.size() == 1
                        ? "index file is missing; it holds the deletion vector of data file "
                        : "index file is missing; it holds the deletion vectors of data files ")
                + String.join(", ", dataFiles);
    }

    /**
     * Checks that each of {@code vectors}, the index manifest of {@code sharing}, is of a data file
     * live in each snapshot of {@code sharing}.
     */
    private void liveness(List<Snapshot> sharing, List<IndexEntry> vectors) {
        if (vectors.isEmpty()) {
            return;
        }
        Map<IndexEntry, List<Long>> notLive = new LinkedHashMap<>();
        for (Snapshot s : sharing) {
            Set<String> live = walk.liveDataFiles(s);
            for (IndexEntry vector : vectors) {
                if (!live.contains(walk.dataFileKey(vector))) {
                    notLive.computeIfAbsent(vector, v -> new ArrayList<>()).add(s.id());
                }
            }
        }
        String manifestKey =
                TableFiles.key(
                        table.location(),
                        table.indexManifest().path(sharing.get(0).indexManifest()));
        notLive.forEach(
                (vector, ids) ->
                        report(
                                manifestKey,
                                String.format(
                                        "it names the deletion vector of data file %s (bucket %d"
                                                + " of partition %s) in index file %s, which is no"
                                                + " live data file of %s %s",
                                        vector.dataFile(),
                                        vector.bucket(),
                                        vector.partition(),
                                        vector.vector().indexFile(),
                                        ids.size() == 1 ? "snapshot" : "snapshots",
                                        ids.stream()
                                                .map(String::valueOf)
                                                .collect(Collectors.joining(", ")))));
    }

    private void report(String key, String problem) {
        found.computeIfAbsent(key, k -> new LinkedHashSet<>()).add(problem);
    }

    /** The names of the files in the table's index directory; none if it does not exist. */
    private static Set<String> listIndexFiles(TableContext table) {
        Set<String> names = new HashSet<>();
        try {
            for (FileStatus f : table.io().list(table.paths().indexDir())) {
                names.add(f.getPath().getName());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot list the index files of table " + table.name() + ": " + e.getMessage(),
                    e);
        }
        return names;
    }
}
