/**
 * Snapshots: the versions of a table.
 *
 * <p>A snapshot is a JSON file {@code snapshot/snapshot-<id>}, ids consecutive from 1, never
 * modified once it exists. It names the schema it was written with, two manifest lists (base: the
 * files up to the previous snapshot; delta: what this commit changed), who committed it (a commit
 * user, stable for one job, and an identifier, the checkpoint id) and record counts. A snapshot
 * becomes visible by being created atomically and exclusively: two committers can never both create
 * the same id, and a reader sees a snapshot whole or not at all.
 *
 * <pre>
 *   snapshot/LATEST  (hint) --> snapshot-7 --> base list: manifests of 1..6
 *                                          --> delta list: manifest of 7
 * </pre>
 *
 * <p>LATEST and EARLIEST are hints: readers probe from them and fall back to listing, so a stale,
 * missing or torn hint costs a few file checks, never a wrong answer. {@link
 * dev.tarn.format.snapshot.SnapshotManager} finds, reads (and caches) snapshots, resolves time
 * travel by timestamp, and publishes new ones through {@link
 * dev.tarn.format.snapshot.SnapshotCommit}, the one atomic, exclusive publish step, chosen by the
 * location's scheme (exclusive creation on file systems; a conditional put on S3-compatible object
 * stores). {@link dev.tarn.format.snapshot.SnapshotReader} is the one way to ask what a snapshot
 * holds: its live files, by bucket, its partitions, and its delta (what it added and removed), for
 * scans, writers, compaction, maintenance and the catalog alike. {@link
 * dev.tarn.format.snapshot.Tags} stores the table's tags, named snapshots that expiration keeps;
 * {@link dev.tarn.format.snapshot.Consumers} the positions of streaming readers.
 */
package dev.tarn.format.snapshot;
