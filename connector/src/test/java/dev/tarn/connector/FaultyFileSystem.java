package dev.tarn.connector;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.local.LocalFileSystem;

/**
 * The local file system under the scheme {@code faulty://}, which can fail the publication of a
 * snapshot file once: before it happens, or after it happened (so the committer cannot tell). The
 * failure may be limited to snapshots of one commit kind, and may first hold the committer until a
 * condition on the snapshot's commit identifier holds. Its state is static, so a job's restarted
 * tasks see the same injector.
 */
public final class FaultyFileSystem extends LocalFileSystem {

    /** When the armed failure strikes, relative to the snapshot file appearing. */
    public enum Mode {
        BEFORE_PUBLISH,
        AFTER_PUBLISH
    }

    /** How long a held publication waits for its condition before it fails regardless. */
    private static final long HOLD_LIMIT_MILLIS = TimeUnit.SECONDS.toMillis(30);

    private static final Pattern IDENTIFIER =
            Pattern.compile("\"commitIdentifier\"\\s*:\\s*(\\d+)");
    private static final Pattern KIND = Pattern.compile("\"commitKind\"\\s*:\\s*\"(\\w+)\"");

    private static volatile Mode mode;
    @Nullable private static volatile String kind;
    @Nullable private static volatile LongPredicate holdUntil;
    private static volatile long failedIdentifier = -1;
    private static volatile boolean released;
    private static final AtomicInteger SNAPSHOTS_TO_PASS = new AtomicInteger();
    private static final AtomicInteger FAILURES = new AtomicInteger();

    /** Fails the snapshot publication after {@code passing} successful ones, once. */
    public static void arm(Mode failure, int passing) {
        arm(failure, passing, null, null);
    }

    /**
     * As {@link #arm(Mode, int)}, counting only snapshots of the commit kind {@code onlyKind} (all
     * if null); with {@code hold}, the failing publication first waits until {@code hold} accepts
     * its commit identifier.
     */
    public static void arm(
            Mode failure, int passing, @Nullable String onlyKind, @Nullable LongPredicate hold) {
        SNAPSHOTS_TO_PASS.set(passing);
        FAILURES.set(0);
        failedIdentifier = -1;
        released = false;
        kind = onlyKind;
        holdUntil = hold;
        mode = failure;
    }

    public static int failures() {
        return FAILURES.get();
    }

    /** The commit identifier of the snapshot whose publication failed, or -1. */
    public static long failedIdentifier() {
        return failedIdentifier;
    }

    /** Whether the hold's condition held before the failure struck (rather than its time limit). */
    public static boolean released() {
        return released;
    }

    @Override
    public URI getUri() {
        return URI.create("faulty:///");
    }

    @Override
    public boolean rename(Path src, Path dst) throws IOException {
        Mode armed = mode;
        if (armed == null || !dst.getName().startsWith("snapshot-")) {
            return super.rename(src, dst);
        }
        String json = Files.readString(pathToFile(src).toPath(), StandardCharsets.UTF_8);
        String onlyKind = kind;
        if ((onlyKind != null && !onlyKind.equals(field(KIND, json)))
                || SNAPSHOTS_TO_PASS.getAndDecrement() > 0) {
            return super.rename(src, dst);
        }
        mode = null;
        long identifier = Long.parseLong(field(IDENTIFIER, json));
        hold(identifier);
        failedIdentifier = identifier;
        FAILURES.incrementAndGet();
        if (armed == Mode.AFTER_PUBLISH) {
            super.rename(src, dst);
        }
        throw new IOException("Injected failure " + armed + " of " + dst);
    }

    private static void hold(long identifier) {
        LongPredicate until = holdUntil;
        if (until == null) {
            return;
        }
        long deadline = System.currentTimeMillis() + HOLD_LIMIT_MILLIS;
        while (!until.test(identifier) && System.currentTimeMillis() < deadline) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        released = until.test(identifier);
    }

    private static String field(Pattern pattern, String json) {
        Matcher m = pattern.matcher(json);
        if (!m.find()) {
            throw new IllegalStateException("No " + pattern + " in snapshot file " + json);
        }
        return m.group(1);
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
