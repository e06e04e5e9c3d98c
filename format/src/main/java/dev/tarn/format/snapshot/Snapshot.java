package dev.tarn.format.snapshot;

import javax.annotation.Nullable;

/**
 * One version of a table. The files it holds are the base manifest list (everything up to the
 * previous snapshot) merged with the delta manifest list (what this commit changed); the changelog
 * manifest list, if any, names the changelog files the commit stored for streaming reads, which are
 * no part of the table's rows; the index manifest, if any, names the deletion vectors of its live
 * files (SPEC.md, "Deletion vectors"). Immutable: once {@code snapshot-<id>} exists it is never
 * rewritten.
 */
public record Snapshot(
        long id,
        long schemaId,
        String baseManifestList,
        String deltaManifestList,
        Commit commit,
        RecordCounts records,
        @Nullable String changelogManifestList,
        @Nullable String indexManifest) {

    /** What a snapshot changed. */
    public enum CommitKind {
        /** New data files were added. */
        APPEND,
        /** Files were rewritten without changing any row. */
        COMPACT,
        /** Files of some partitions (or all) were replaced. */
        OVERWRITE
    }

    /**
     * Who made the snapshot and why.
     *
     * @param user stable per writing job, so a restarted job can find its own commits
     * @param identifier the checkpoint id (streaming) or a fixed value (batch)
     * @param watermark the writer's event-time watermark, if any
     */
    public record Commit(
            String user,
            long identifier,
            CommitKind kind,
            long timeMillis,
            @Nullable Long watermark) {}

    /** Rows in the table after the snapshot, and rows its delta added minus rows it deleted. */
    public record RecordCounts(long total, long delta) {}

    public Snapshot {
        if (id < 1) {
            throw new IllegalArgumentException("Snapshot ids start at 1: " + id);
        }
    }

    /** A snapshot without deletion vectors. */
    public Snapshot(
            long id,
            long schemaId,
            String baseManifestList,
            String deltaManifestList,
            Commit commit,
            RecordCounts records,
            @Nullable String changelogManifestList) {
        this(
                id,
                schemaId,
                baseManifestList,
                deltaManifestList,
                commit,
                records,
                changelogManifestList,
                null);
    }

    /** A snapshot without changelog files. */
    public Snapshot(
            long id,
            long schemaId,
            String baseManifestList,
            String deltaManifestList,
            Commit commit,
            RecordCounts records) {
        this(id, schemaId, baseManifestList, deltaManifestList, commit, records, null, null);
    }
}
