package dev.tarn.format.maintenance;

/**
 * What an expiration run after commits learnt of a table's oldest snapshot, kept in memory so that
 * the runs after the next commits can tell without reading anything that nothing can expire yet:
 * while the snapshots beyond {@code snapshot.num-retained.min} are all younger than {@code
 * snapshot.time-retained} and there are no more than {@code snapshot.num-retained.max}, a run would
 * only read the hints, the consumers and the tags to remove nothing (on an object store 17 requests
 * after every commit).
 *
 * <p>Why a stale memory is safe. Other processes only ever remove the oldest snapshots, so the
 * table's real oldest snapshot is at or after the one remembered and committed no earlier (commit
 * times grow with ids): both tests below hold for the real table whenever they hold for the memory,
 * and a memory older than the table can only make a run do the I/O, never skip one that would
 * expire a snapshot. What the memory cannot see (a rollback that restored an older snapshot from a
 * tag, an interrupted expiration of another process, a tag or consumer past its retention) waits at
 * most {@link #MAX_AGE_MILLIS}: a memory that old is not used, and the run that follows reads the
 * table and learns it anew.
 *
 * @param id the oldest snapshot id the run left
 * @param commitMillis its commit time
 * @param learntMillis when the run saw it
 */
record OldestSnapshot(long id, long commitMillis, long learntMillis) {

    /**
     * How long a memory is trusted: the longest a tag or consumer past its retention, or another
     * process's interrupted expiration, waits for the next run; one full run a minute costs a
     * streaming job with 1 s checkpoints a fraction of a request per commit.
     */
    static final long MAX_AGE_MILLIS = 60_000;

    /**
     * Whether a run by the table's options would remove nothing now, judged without I/O.
     *
     * @param latest the newest snapshot id known (the one a commit just published)
     * @param settings the settings the run would have
     */
    boolean nothingCanExpire(long latest, SnapshotExpiration.Settings settings, long nowMillis) {
        if (nowMillis - learntMillis > MAX_AGE_MILLIS || nowMillis < learntMillis || latest < id) {
            return false;
        }
        long retained = latest - id + 1;
        if (retained <= settings.retainMin()) {
            return true;
        }
        // As SnapshotExpiration.end: within the most kept, the oldest goes only once it is old.
        return retained <= settings.retainMax() && commitMillis >= settings.olderThanMillis();
    }
}
