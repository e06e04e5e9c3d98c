/**
 * The Tarn Sink V2 sink: files written by many writers, published as one snapshot per checkpoint.
 *
 * <pre>
 *   rows --(primary key: by bucket)--> [TarnSinkWriter 0..n-1] --TarnCommittable--> global()
 *            close files when the checkpoint barrier passes     (tagged with the checkpoint id)
 *        --> [TarnCommitter 0]  publishes one snapshot when Flink reports the checkpoint done
 *                               (an APPEND, then a COMPACT one if buckets were compacted)
 * </pre>
 *
 * <p>Invariants: nothing becomes visible before its checkpoint completes; every committable names
 * its commit user and checkpoint id, and the committer skips those a snapshot of that user already
 * holds, so retries after failures, restores and savepoint restores into new jobs commit each
 * checkpoint exactly once; the committer never deletes files, since a retry may need them; in a
 * checkpointed job a writer reads the table's files of its buckets only at its first checkpoint,
 * after the committer has published what it restored. Batch inserts are the same pipeline with one
 * commit at the end of the input. Rows of a primary-key table reach writers by bucket ({@code
 * BucketRouting}), so each bucket has one writer and its sequence numbers only grow. Each
 * committable carries the highest watermark its writer received; the snapshot records the lowest of
 * a checkpoint's writers' (SPEC.md, "Watermarks").
 */
package dev.tarn.connector.sink;
