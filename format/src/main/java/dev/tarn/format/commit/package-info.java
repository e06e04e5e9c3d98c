/**
 * The commit seam: {@link dev.tarn.format.commit.TableCommit#commit} publishes one {@link
 * dev.tarn.format.commit.CommitRequest} (identifier, commit messages, watermark, overwrite scope)
 * as snapshots (SPEC.md, "Commit protocol"). Each attempt is staged against the latest snapshot as
 * its base by the staging of its kind (append, overwrite, compaction: which entries, which
 * conflicts), then manifests and lists are written, the next snapshot built and published through
 * the table's atomic step; a lost race is retried as the retry policy says, and the retry loop
 * knows nothing of kinds. After every call the committer's hooks run ({@link
 * dev.tarn.format.commit.CommitHook}: expiration today).
 *
 * <pre>
 *   CommitRequest --> look back: what of it does a snapshot of the user hold?
 *                 --> Staging (append | overwrite | compaction) --> CommitAttempt --> snapshot-n+1
 *                 --> CommitHooks
 * </pre>
 *
 * A compaction that no longer applies is dropped, never failed: a commit fails only if its new rows
 * are not published. Retries after a failure publish only what no snapshot of the commit user holds
 * yet.
 */
package dev.tarn.format.commit;
