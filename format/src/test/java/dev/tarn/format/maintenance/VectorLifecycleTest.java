package dev.tarn.format.maintenance;

import static dev.tarn.format.maintenance.LifecycleTables.assertNoLostOrLeakedFiles;
import static dev.tarn.format.maintenance.LifecycleTables.snapshotIds;
import static dev.tarn.format.maintenance.VectorTables.commit;
import static dev.tarn.format.maintenance.VectorTables.fileId;
import static dev.tarn.format.maintenance.VectorTables.indexFilesOnDisk;
import static dev.tarn.format.maintenance.VectorTables.indexManifest;
import static dev.tarn.format.maintenance.VectorTables.indexManifestsOnDisk;
import static dev.tarn.format.maintenance.VectorTables.referencedIndexFiles;
import static dev.tarn.format.maintenance.VectorTables.referencedIndexManifests;
import static dev.tarn.format.maintenance.VectorTables.vectors;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.maintenance.SnapshotLifecycle.ExpireRequest;
import dev.tarn.format.maintenance.SnapshotLifecycle.ExpireResult;
import dev.tarn.format.maintenance.SnapshotLifecycle.RollbackResult;
import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.table.TableContext;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Expiration, tags and rollback of a table with deletion vectors: the index files and index
 * manifests that no snapshot or tag left names go with the snapshots that named them; those a later
 * snapshot reuses, or a tag keeps, stay.
 */
class VectorLifecycleTest {

    /** Every snapshot is older than this. */
    private static final long NEVER = Long.MAX_VALUE;

    @TempDir Path dir;

    private Table table;
    private TableContext context;

    /** The index files of snapshots 2 (A's first vector), 3 (B's vector) and 4 (A's second). */
    private String first;

    private String second;
    private String third;

    /**
     * Snapshot 1 adds file A (rows 1, 2, 3); 2 adds B (rows 1, 4), deleting A's row 1 (index file
     * {@code first}); 3 replaces row 4, deleting B's row (index file {@code second}) and naming
     * {@code first} again for A; 4 replaces row 2, deleting two rows of A (index file {@code
     * third}); 5 adds row 9 and changes no vector, so it names snapshot 4's index manifest again.
     */
    @BeforeEach
    void fiveSnapshots() {
        table = VectorTables.create(dir);
        context = TableInternals.context(table);
        String a = commit(table, 1, List.of(1L, 2L, 3L), null).fileName();
        String b = commit(table, 2, List.of(1L, 4L), a, 0).fileName();
        first = vectors(table).get(fileId(a)).indexFile();
        commit(table, 3, List.of(4L), b, 1);
        second = vectors(table).get(fileId(b)).indexFile();
        assertThat(vectors(table).get(fileId(a)).indexFile()).isEqualTo(first);
        commit(table, 4, List.of(2L), a, 1);
        third = vectors(table).get(fileId(a)).indexFile();
        commit(table, 5, List.of(9L), null);
        assertThat(indexManifest(table, 5)).isEqualTo(indexManifest(table, 4));
        assertThat(indexFilesOnDisk(dir)).containsExactlyInAnyOrder(first, second, third);
    }

    private static DeletionFile only(java.util.Collection<DeletionFile> vectors) {
        assertThat(vectors).hasSize(1);
        return vectors.iterator().next();
    }

    /** Expires all but the newest {@code retain} snapshots. */
    private ExpireResult expire(int retain) {
        return SnapshotLifecycle.expire(
                context,
                new ExpireRequest(retain, retain, NEVER, null),
                System.currentTimeMillis());
    }

    /** Every index file and index manifest on disk is named, and every named one is on disk. */
    private void assertNoLostOrLeakedVectors() {
        assertThat(indexFilesOnDisk(dir)).as("index files").isEqualTo(referencedIndexFiles(table));
        assertThat(indexManifestsOnDisk(dir))
                .as("index manifests")
                .isEqualTo(referencedIndexManifests(table));
        assertNoLostOrLeakedFiles(table, dir);
    }

    @Test
    void expirationDeletesWhatOnlyExpiredSnapshotsNamedAndKeepsWhatAKeptOneNames() {
        List<String> expiredManifests = List.of(indexManifest(table, 2), indexManifest(table, 3));
        String reused = indexManifest(table, 4);

        ExpireResult result = expire(2);

        assertThat(snapshotIds(table)).containsExactly(4L, 5L);
        // second: named by the expired snapshot 3 and the kept snapshot 4.
        assertThat(indexFilesOnDisk(dir)).containsExactlyInAnyOrder(second, third);
        assertThat(indexManifestsOnDisk(dir))
                .containsExactly(reused)
                .doesNotContainAnyElementsOf(expiredManifests);
        assertNoLostOrLeakedVectors();
        assertThat(result.indexFiles()).isEqualTo(1);
        assertThat(result.summary())
                .isEqualTo(
                        "Expired 3 snapshots of table db.t, 2 left: deleted 0 data files, 1 index"
                                + " file, 8 manifest files and 0 expired tags");
        assertThat(vectors(table)).hasSize(2);
    }

    @Test
    void aTagKeepsTheIndexFilesOfItsSnapshotUntilItIsDeleted() {
        // Snapshot 3 names first and second; second is also the earliest snapshot's.
        SnapshotLifecycle.createTag(context, "t", OptionalLong.of(3), null, 0);
        String tagged = indexManifest(table, 3);

        expire(1);

        assertThat(snapshotIds(table)).containsExactly(5L);
        assertThat(indexFilesOnDisk(dir)).containsExactlyInAnyOrder(first, second, third);
        assertThat(indexManifestsOnDisk(dir)).contains(tagged);
        assertNoLostOrLeakedVectors();

        SnapshotLifecycle.deleteTag(context, "t");

        assertThat(indexFilesOnDisk(dir)).containsExactlyInAnyOrder(second, third);
        assertThat(indexManifestsOnDisk(dir)).doesNotContain(tagged);
        assertNoLostOrLeakedVectors();
    }

    @Test
    void rollbackRemovesWhatOnlyTheRemovedSnapshotsNamed() {
        String kept = indexManifest(table, 2);

        RollbackResult result = SnapshotLifecycle.rollbackTo(context, 2);

        assertThat(snapshotIds(table)).containsExactly(1L, 2L);
        assertThat(indexFilesOnDisk(dir)).containsExactly(first);
        assertThat(indexManifestsOnDisk(dir)).containsExactly(kept);
        assertNoLostOrLeakedVectors();
        assertThat(result.indexFiles()).isEqualTo(2);
        assertThat(result.summary()).contains(", 2 index files and ");
        assertThat(only(vectors(table).values()).indexFile()).isEqualTo(first);
    }

    @Test
    void rollbackToATagWhoseSnapshotExpiredRemovesEveryVectorItDidNotHave() {
        SnapshotLifecycle.createTag(context, "before", OptionalLong.of(1), null, 0);
        expire(1);

        SnapshotLifecycle.rollbackToTag(context, "before");

        assertThat(snapshotIds(table)).containsExactly(1L);
        assertThat(indexFilesOnDisk(dir)).isEmpty();
        assertThat(indexManifestsOnDisk(dir)).isEmpty();
        assertNoLostOrLeakedVectors();
    }
}
