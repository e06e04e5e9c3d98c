/**
 * The ledger of prepared files (SPEC.md, "Pending commits"): before a streaming committer publishes
 * checkpoint N it records (beside the commit, complete before it returns), per commit user and
 * checkpoint, the files its pending committables prepared and the checkpoints they came from; the
 * record goes once N is seen published. Orphan cleanup keeps every file a record lists, and the
 * integrity check tells from the records which checkpoint a job can be restored from when a
 * prepared file is lost.
 *
 * <pre>
 *   committables of N --> PendingCommits.commit: write pending/&lt;user&gt;/ckp-N
 *                     --> TableCommit.commit (publish, or find published)
 *                     --> delete ckp-N (the first commit of a committer: every record of the user)
 * </pre>
 */
package dev.tarn.format.ledger;
