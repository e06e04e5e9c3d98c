package dev.tarn.format.snapshot;

import dev.tarn.format.io.FileIO;
import java.io.IOException;
import org.apache.flink.core.fs.Path;

/**
 * {@link SnapshotCommit} under a {@link CommitLock}: takes the table's lock, checks that the target
 * is absent, renews the lock, writes the target whole ({@link FileIO#overwrite}, atomic for
 * readers), and releases. Exclusive as long as every committer of the table takes the same lock and
 * a write finishes within the lock's time to live; the store itself need not refuse anything.
 */
final class LockedSnapshotCommit implements SnapshotCommit {

    private static final long serialVersionUID = 1L;

    private final FileIO io;
    private final CommitLock lock;

    LockedSnapshotCommit(FileIO io, CommitLock lock) {
        this.io = io;
        this.lock = lock;
    }

    @Override
    public boolean publish(Path path, byte[] content) throws IOException {
        try (CommitLock.Lease lease = lock.acquire()) {
            if (io.exists(path)) {
                return false;
            }
            lease.renew();
            io.overwrite(path, content);
            return true;
        }
    }
}
