/**
 * The commit seam: {@link dev.tarn.format.commit.TableCommit} publishes commit messages as
 * snapshots (SPEC.md, "Commit protocol"). Each attempt is staged against the latest snapshot as its
 * base (conflicts checked, manifests and lists written, the next snapshot built) and published
 * through the table's atomic step; a lost race is retried as the retry policy says. A compaction
 * that no longer applies is dropped, never failed: a commit fails only if its new rows are not
 * published. Retries after a failure publish only what no snapshot of the commit user holds yet.
 */
package dev.tarn.format.commit;
