package dev.tarn.format.maintenance;

import static dev.tarn.format.maintenance.MaintenanceTables.age;
import static dev.tarn.format.maintenance.MaintenanceTables.filesBelow;
import static dev.tarn.format.maintenance.VectorTables.commit;
import static dev.tarn.format.maintenance.VectorTables.indexFilesOnDisk;
import static dev.tarn.format.maintenance.VectorTables.indexManifest;
import static dev.tarn.format.maintenance.VectorTables.indexManifestsOnDisk;
import static dev.tarn.format.maintenance.VectorTables.referencedIndexFiles;
import static dev.tarn.format.maintenance.VectorTables.referencedIndexManifests;
import static dev.tarn.format.maintenance.VectorTables.vectors;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.deletion.DeletionVector;
import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.IndexEntry;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.table.TableContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Orphan cleanup and the integrity check of a table with deletion vectors: cleanup removes old
 * index files and index manifests that no snapshot names and never a named one; the check reads
 * every index manifest and vector and reports a missing index file, a damaged vector and a vector
 * of a file it cannot belong to, naming the index file and the data file.
 */
class VectorFilesCheckTest {

    private static final Instant NOW = Instant.now();
    private static final Instant OLD = NOW.minus(Duration.ofDays(3));

    @TempDir Path dir;

    private Table table;
    private TableContext context;
    private String a;

    /** Snapshot 1 adds file A (rows 1, 2, 3); 2 and 3 each delete one row of A. */
    @BeforeEach
    void threeSnapshots() {
        table = VectorTables.create(dir);
        context = TableInternals.context(table);
        a = commit(table, 1, List.of(1L, 2L, 3L), null).fileName();
        commit(table, 2, List.of(1L), a, 0);
        commit(table, 3, List.of(2L), a, 1);
    }

    private String indexFileOf(long snapshot) {
        return context.snapshotReader()
                .vectors(context.snapshotManager().snapshot(snapshot))
                .values()
                .iterator()
                .next()
                .indexFile();
    }

    private Path indexPath(String name) {
        return dir.resolve("index").resolve(name);
    }

    @Test
    void orphanCleanupRemovesOldUnnamedIndexFilesAndIndexManifestsOnly() throws Exception {
        // A writer's index file and a committer's index manifest whose commit never happened.
        String strayFile =
                context.indexFiles()
                        .write(Map.of("data-lost.parquet", DeletionVector.of(3)))
                        .get("data-lost.parquet")
                        .indexFile();
        String strayManifest =
                context.indexManifest()
                        .write(
                                List.of(
                                        new IndexEntry(
                                                Partition.EMPTY,
                                                0,
                                                "data-lost.parquet",
                                                new DeletionFile(strayFile, 4, 40, 1))));
        filesBelow(dir).forEach(f -> age(f, OLD));

        RemoveOrphanFiles.Result result = RemoveOrphanFiles.run(context, null, false, false, NOW);

        assertThat(result.files())
                .extracting(RemoveOrphanFiles.Removed::path)
                .containsExactlyInAnyOrder(
                        context.indexFiles().path(strayFile).toString(),
                        context.indexManifest().path(strayManifest).toString());
        assertThat(indexFilesOnDisk(dir))
                .isEqualTo(referencedIndexFiles(table))
                .hasSize(2)
                .doesNotContain(strayFile);
        assertThat(indexManifestsOnDisk(dir)).isEqualTo(referencedIndexManifests(table)).hasSize(2);
        assertThat(vectors(table)).hasSize(1);
    }

    @Test
    void aWholeTableChecksItsIndexManifestsAndIndexFiles() {
        TableCheck.Result result = TableCheck.run(context, false);

        assertThat(result.problems()).isEmpty();
        // 6 lists, 3 manifests, 3 data files, 2 index manifests, 2 index files.
        assertThat(result.summary())
                .isEqualTo("Table db.t is whole: checked 3 snapshots and 16 files");
    }

    @Test
    void aMissingIndexFileIsReportedWithItsDataFilesAndTheSnapshotsThatNeedIt() throws Exception {
        String second = indexFileOf(3);
        Files.delete(indexPath(second));

        TableCheck.Result result = TableCheck.run(context, false);

        assertThat(result.problems())
                .containsExactly(
                        new TableCheck.Problem(
                                context.indexFiles().path(second).toString(),
                                "index file is missing; it holds the deletion vector of data"
                                        + " file "
                                        + a,
                                List.of(3L)));
        assertThat(result.newestWhole()).hasValue(2);
    }

    @Test
    void aDamagedVectorIsReportedNamingTheIndexFileAndTheDataFile() throws Exception {
        String first = indexFileOf(2);
        byte[] bytes = Files.readAllBytes(indexPath(first));
        bytes[10] ^= 0x7F; // inside the blob: its checksum no longer matches
        Files.write(indexPath(first), bytes);

        TableCheck.Result result = TableCheck.run(context, false);

        assertThat(result.problems()).hasSize(1);
        TableCheck.Problem problem = result.problems().get(0);
        assertThat(problem.file()).isEqualTo(context.indexFiles().path(first).toString());
        assertThat(problem.problem())
                .startsWith("Corrupt deletion vector of data file " + a + " in index file ")
                .contains(first);
        assertThat(problem.snapshots()).containsExactly(2L);
        assertThat(result.newestWhole()).hasValue(3);
    }

    @Test
    void aVectorPastItsFileOrOfAFileNotLiveIsReported() throws Exception {
        // Snapshot 3's index manifest, replaced by one that deletes row 7 of the 3 rows of A and
        // names a vector of a data file that is not in the table.
        Map<String, DeletionVector> bad = new LinkedHashMap<>();
        bad.put(a, DeletionVector.of(1, 7));
        bad.put("data-gone.parquet", DeletionVector.of(0));
        Map<String, DeletionFile> places = context.indexFiles().write(bad);
        String index = places.get(a).indexFile();
        String replacement =
                context.indexManifest()
                        .write(
                                List.of(
                                        new IndexEntry(Partition.EMPTY, 0, a, places.get(a)),
                                        new IndexEntry(
                                                Partition.EMPTY,
                                                0,
                                                "data-gone.parquet",
                                                places.get("data-gone.parquet"))));
        String third = indexManifest(table, 3);
        Files.move(
                dir.resolve("manifest").resolve(replacement),
                dir.resolve("manifest").resolve(third),
                StandardCopyOption.REPLACE_EXISTING);

        TableCheck.Result result = TableCheck.run(context, false);

        assertThat(result.problems())
                .containsExactlyInAnyOrder(
                        new TableCheck.Problem(
                                context.indexFiles().path(index).toString(),
                                "deletion vector of data file "
                                        + a
                                        + " deletes row 7, past the 3 rows of the file",
                                List.of(3L)),
                        new TableCheck.Problem(
                                context.indexManifest().path(third).toString(),
                                "it names the deletion vector of data file data-gone.parquet"
                                        + " (bucket 0 of partition []) in index file "
                                        + index
                                        + ", which is no live data file of snapshot 3",
                                List.of(3L)));
        assertThat(result.newestWhole()).hasValue(2);
        assertThat(indexManifestsOnDisk(dir)).contains(third);
    }
}
