package dev.tarn.format.maintenance;

import static dev.tarn.format.maintenance.LifecycleTables.assertNoLostOrLeakedFiles;
import static dev.tarn.format.maintenance.LifecycleTables.snapshotIds;
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

    /** Index file of snapshot 2 (a vector of file A), and of snapshots 3 and 4 (A's next). */
    private String first;

    private String second;

    /**
     * Snapshot 1 adds file A (rows 1, 2, 3); 2 replaces row 1 (A's position 0 deleted); 3 replaces
     * row 2 (A's positions 0 and 1 deleted, in a new index file and index manifest); 4 adds row 9
     * and changes no vector, so it names snapshot 3's index manifest again.
     */
    @BeforeEach
    void fourSnapshots() {
        table = VectorTables.create(dir);
        context = TableInternals.context(table);
        String a = commit(table, 1, List.of(1L, 2L, 3L), null).fileName();
        commit(table, 2, List.of(1L), a, 0);
        first = only(vectors(table).values()).indexFile();
        commit(table, 3, List.of(2L), a, 1);
        second = only(vectors(table).values()).indexFile();
        commit(table, 4, List.of(9L), null);
        assertThat(indexManifest(table, 4)).isEqualTo(indexManifest(table, 3));
        assertThat(indexFilesOnDisk(dir)).containsExactlyInAnyOrder(first, second);
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
    void expirationDeletesWhatOnlyExpiredSnapshotsNamedAndKeepsWhatALaterOneReuses() {
        String expiredManifest = indexManifest(table, 2);
        String reused = indexManifest(table, 3);

        ExpireResult result = expire(2);

        assertThat(snapshotIds(table)).containsExactly(3L, 4L);
        assertThat(indexFilesOnDisk(dir)).containsExactly(second);
        assertThat(indexManifestsOnDisk(dir))
                .containsExactly(reused)
                .doesNotContain(expiredManifest);
        assertNoLostOrLeakedVectors();
        assertThat(result.indexFiles()).isEqualTo(1);
        assertThat(result.summary())
                .isEqualTo(
                        "Expired 2 snapshots of table db.t, 2 left: deleted 0 data files, 1 index"
                                + " file, 5 manifest files and 0 expired tags");
        assertThat(vectors(table)).hasSize(1);
    }

    @Test
    void aTagKeepsTheIndexFilesOfItsSnapshotUntilItIsDeleted() {
        SnapshotLifecycle.createTag(context, "t", OptionalLong.of(2), null, 0);
        String tagged = indexManifest(table, 2);

        expire(1);

        assertThat(snapshotIds(table)).containsExactly(4L);
        assertThat(indexFilesOnDisk(dir)).containsExactlyInAnyOrder(first, second);
        assertThat(indexManifestsOnDisk(dir)).contains(tagged);
        assertNoLostOrLeakedVectors();

        SnapshotLifecycle.deleteTag(context, "t");

        assertThat(indexFilesOnDisk(dir)).containsExactly(second);
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
        assertThat(result.indexFiles()).isEqualTo(1);
        assertThat(result.summary()).contains("1 index file");
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
