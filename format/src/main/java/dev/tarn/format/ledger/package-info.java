/**
 * The ledger of prepared files (SPEC.md, "Pending commits"): while checkpoint N is taken, the
 * streaming sink replaces its commit user's one record with the files that the committer's pending
 * committables prepared and the checkpoints they came from, so the checkpoint completes only with
 * them recorded and the commit after it never waits for the ledger. A record is done once a
 * snapshot of its user reaches N; it is replaced by the next checkpoint that prepared files, and
 * deleted only when a committer closes after publishing its checkpoint. Orphan cleanup keeps every
 * file a record not yet done lists, and the integrity check tells from the records which checkpoint
 * a job can be restored from when a prepared file is lost.
 *
 * <pre>
 *   barrier of N at the committer's subtask --> PendingCommits.record: replace pending/&lt;user&gt;
 *   checkpoint N complete --> TableCommit.commit (publish, or find published)
 *   committer closes --> PendingCommits.forget: delete pending/&lt;user&gt; if N was published
 * </pre>
 */
package dev.tarn.format.ledger;
