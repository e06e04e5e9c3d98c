package dev.tarn.format.snapshot;

import java.io.IOException;
import java.io.Serializable;

/**
 * A lock that makes publishing a table's metadata files exclusive where the store's own
 * create-if-absent is not atomic. One lock per table (keyed by its location); {@link
 * LockedSnapshotCommit} holds it around the check that a file is absent and the write of it.
 * Serializable with the table it serves: it holds settings only and opens what it needs per
 * acquisition.
 */
interface CommitLock extends Serializable {

    /**
     * Takes the lock, waiting up to the lock's timeout.
     *
     * @throws IOException naming the table, the lock and the reason if it cannot be taken (not free
     *     within the timeout, or the lock service unreachable); nothing was published then
     */
    Lease acquire() throws IOException;

    /** A held lock. Closing releases it; a release that fails leaves it to expire. */
    interface Lease extends AutoCloseable {

        /**
         * Confirms the lock is still held and renews it for its full time to live, right before the
         * caller changes storage.
         *
         * @throws IOException if the lock was lost (it expired and another committer took it)
         */
        void renew() throws IOException;

        @Override
        void close();
    }
}
