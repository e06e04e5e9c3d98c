package dev.tarn.connector;

import java.io.IOException;
import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.local.LocalFileSystem;

/**
 * The local file system under the scheme {@code faulty://}, which can fail the publication of a
 * snapshot file once: before it happens, or after it happened (so the committer cannot tell). Its
 * state is static, so a job's restarted tasks see the same injector.
 */
public final class FaultyFileSystem extends LocalFileSystem {

    /** When the armed failure strikes, relative to the snapshot file appearing. */
    public enum Mode {
        BEFORE_PUBLISH,
        AFTER_PUBLISH
    }

    private static volatile Mode mode;
    private static final AtomicInteger SNAPSHOTS_TO_PASS = new AtomicInteger();
    private static final AtomicInteger FAILURES = new AtomicInteger();

    /** Fails the snapshot publication after {@code passing} successful ones, once. */
    public static void arm(Mode failure, int passing) {
        SNAPSHOTS_TO_PASS.set(passing);
        FAILURES.set(0);
        mode = failure;
    }

    public static int failures() {
        return FAILURES.get();
    }

    @Override
    public URI getUri() {
        return URI.create("faulty:///");
    }

    @Override
    public boolean rename(Path src, Path dst) throws IOException {
        Mode armed = mode;
        if (armed == null
                || !dst.getName().startsWith("snapshot-")
                || SNAPSHOTS_TO_PASS.getAndDecrement() > 0) {
            return super.rename(src, dst);
        }
        mode = null;
        FAILURES.incrementAndGet();
        if (armed == Mode.AFTER_PUBLISH) {
            super.rename(src, dst);
        }
        throw new IOException("Injected failure " + armed + " of " + dst);
    }

    /** Registered for the {@code faulty} scheme through the service loader. */
    public static final class Factory implements FileSystemFactory {
        @Override
        public String getScheme() {
            return "faulty";
        }

        @Override
        public FileSystem create(URI uri) {
            return new FaultyFileSystem();
        }
    }
}
