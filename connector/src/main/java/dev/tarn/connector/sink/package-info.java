/**
 * The Tarn Sink V2 sink: files written by many writers, published as one snapshot per checkpoint.
 *
 * <pre>
 *   rows --> [TarnSinkWriter 0..n-1] --TarnCommittable--> global() --> [TarnCommitter 0]
 *            close files when the      (tagged with the       publishes one snapshot when
 *            checkpoint barrier passes  checkpoint id)        Flink reports the checkpoint done
 * </pre>
 *
 * <p>Invariants: nothing becomes visible before its checkpoint completes; every committable names
 * its commit user and checkpoint id, and the committer skips those a snapshot of that user already
 * holds, so retries after failures, restores and savepoint restores into new jobs commit each
 * checkpoint exactly once; the committer never deletes files, since a retry may need them; in a
 * checkpointed job a writer reads the table's files of its buckets only at its first checkpoint,
 * after the committer has published what it restored. Batch inserts are the same pipeline with one
 * commit at the end of the input.
 */
package dev.tarn.connector.sink;
