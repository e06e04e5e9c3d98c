/**
 * The ledger of prepared files (SPEC.md, "Pending commits"): while a streaming committer publishes
 * checkpoint N it replaces its commit user's one record (beside the commit, complete before it
 * returns) with the files its pending committables prepared and the checkpoints they came from. A
 * record is done once a snapshot of its user reaches N; it is replaced by the next commit, and
 * deleted only when the committer closes after a published commit. Orphan cleanup keeps every file
 * a record not yet done lists, and the integrity check tells from the records which checkpoint a
 * job can be restored from when a prepared file is lost.
 *
 * <pre>
 *   committables of N --> PendingCommits.commit: replace pending/&lt;user&gt; (one PUT)
 *                     --> TableCommit.commit (publish, or find published)
 *   committer closes after a published commit --> delete pending/&lt;user&gt;
 * </pre>
 */
package dev.tarn.format.ledger;
