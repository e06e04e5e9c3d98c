package dev.tarn.connector;

import java.io.File;
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
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.local.LocalFileSystem;

/**
 * The local file system under a scheme of its own, which can fail the publication of a snapshot
 * file once: before it happens, or after it happened (so the committer cannot tell). The failure
 * may be limited to snapshots of one commit kind, and may first hold the committer until a
 * condition on the snapshot's commit identifier holds. Its state is static, so a job's restarted
 * tasks see the same injector.
 *
 * <p>Tarn's file I/O publishes a snapshot in one of two ways, and each {@link Publication} makes it
 * take one: a rename without overwrite (as on HDFS), or the hard link it uses on local files.
 */
public final class FaultyFileSystem extends LocalFileSystem {

    /** When the armed failure strikes, relative to the snapshot file appearing. */
    public enum Mode {
        BEFORE_PUBLISH,
        AFTER_PUBLISH
    }

    /** How the file I/O publishes snapshot files on this file system, and where they fail. */
    public enum Publication {
        /**
         * Scheme {@code faulty}: not local to the file I/O, so it publishes by renaming the
         * temporary file, as on HDFS. The failure strikes in the rename.
         */
        RENAME("faulty"),
        /**
         * Scheme {@code faultylink}: reports itself as {@code file:///}, so the file I/O takes its
         * production path for local files, a hard link from the temporary file. The failure strikes
         * when the temporary file is closed (before) or deleted after the link (after).
         */
        LINK("faultylink");

        private final String scheme;

        Publication(String scheme) {
            this.scheme = scheme;
        }

        /** The location of table {@code name} under {@code dir} through this file system. */
        public String path(File dir, String name) {
            return scheme + "://" + dir.getAbsolutePath() + "/" + name;
        }
    }

    /** How long a held publication waits for its condition before it fails regardless. */
    private static final long HOLD_LIMIT_MILLIS = TimeUnit.SECONDS.toMillis(30);

    private static final Pattern IDENTIFIER =
            Pattern.compile("\"commitIdentifier\"\\s*:\\s*(\\d+)");
    private static final Pattern KIND = Pattern.compile("\"commitKind\"\\s*:\\s*\"(\\w+)\"");

    /** The temporary file the file I/O writes a snapshot into: {@code .snapshot-<n>.<uuid>.tmp}. */
    private static final Pattern SNAPSHOT_TEMP = Pattern.compile("\\.(snapshot-\\d+)\\..*\\.tmp");

    private static volatile Mode mode;
    @Nullable private static volatile String kind;
    @Nullable private static volatile LongPredicate holdUntil;
    private static volatile long failedIdentifier = -1;
    private static volatile boolean released;
    private static final AtomicInteger SNAPSHOTS_TO_PASS = new AtomicInteger();
    private static final AtomicInteger FAILURES = new AtomicInteger();

    private final Publication publication;

    private FaultyFileSystem(Publication publication) {
        this.publication = publication;
    }

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
        return URI.create(publication == Publication.LINK ? "file:///" : "faulty:///");
    }

    @Override
    public boolean rename(Path src, Path dst) throws IOException {
        boolean snapshot = dst.getName().startsWith("snapshot-");
        if (publication == Publication.LINK && snapshot) {
            // Guards the premise of LINK: a test through it would test the rename path again.
            throw new IllegalStateException(
                    "Snapshot "
                            + dst
                            + " published by a rename, not by the hard link of local files");
        }
        Mode armed = mode;
        if (armed == null || !snapshot) {
            return super.rename(src, dst);
        }
        if (!strikes(read(src))) {
            return super.rename(src, dst);
        }
        if (armed == Mode.AFTER_PUBLISH) {
            super.rename(src, dst);
        }
        throw new IOException("Injected failure " + armed + " of " + dst);
    }

    @Override
    public FSDataOutputStream create(Path path, WriteMode overwrite) throws IOException {
        FSDataOutputStream out = super.create(path, overwrite);
        if (publication != Publication.LINK || snapshotOf(path) == null) {
            return out;
        }
        return new ClosingOutputStream(
                out,
                () -> {
                    if (mode == Mode.BEFORE_PUBLISH && strikes(read(path))) {
                        throw new IOException(
                                "Injected failure BEFORE_PUBLISH of " + snapshotOf(path));
                    }
                });
    }

    @Override
    public boolean delete(Path path, boolean recursive) throws IOException {
        String snapshot = snapshotOf(path);
        if (publication != Publication.LINK
                || snapshot == null
                || mode != Mode.AFTER_PUBLISH
                || !exists(path)) {
            return super.delete(path, recursive);
        }
        Path published = new Path(path.getParent(), snapshot);
        String json = read(path);
        if (!exists(published) || !json.equals(read(published))) {
            return super.delete(path, recursive);
        }
        // The snapshot file is linked: the publication happened, and only its clean-up is left.
        boolean deleted = super.delete(path, recursive);
        if (strikes(json)) {
            throw new IOException("Injected failure AFTER_PUBLISH of " + snapshot);
        }
        return deleted;
    }

    /** The snapshot file name a temporary snapshot file is written for, or null. */
    @Nullable
    private static String snapshotOf(Path path) {
        Matcher m = SNAPSHOT_TEMP.matcher(path.getName());
        return m.matches() ? m.group(1) : null;
    }

    private String read(Path path) throws IOException {
        return Files.readString(pathToFile(path).toPath(), StandardCharsets.UTF_8);
    }

    /**
     * Whether the armed failure strikes the publication of snapshot {@code json}; if so, disarms
     * it, first holds as armed, and records the failure.
     */
    private static boolean strikes(String json) {
        String onlyKind = kind;
        if ((onlyKind != null && !onlyKind.equals(field(KIND, json)))
                || SNAPSHOTS_TO_PASS.getAndDecrement() > 0) {
            return false;
        }
        mode = null;
        long identifier = Long.parseLong(field(IDENTIFIER, json));
        hold(identifier);
        failedIdentifier = identifier;
        FAILURES.incrementAndGet();
        return true;
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

    /** What runs once the stream's bytes are on disk. */
    @FunctionalInterface
    private interface AfterClose {
        void run() throws IOException;
    }

    /** An output stream that runs a check once it is closed and its bytes are on disk. */
    private static final class ClosingOutputStream extends FSDataOutputStream {
        private final FSDataOutputStream out;
        private final AfterClose afterClose;
        private boolean closed;

        ClosingOutputStream(FSDataOutputStream out, AfterClose afterClose) {
            this.out = out;
            this.afterClose = afterClose;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public long getPos() throws IOException {
            return out.getPos();
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void sync() throws IOException {
            out.sync();
        }

        @Override
        public void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            out.close();
            afterClose.run();
        }
    }

    /** Registered for the {@code faulty} scheme through the service loader. */
    public static final class Factory implements FileSystemFactory {
        @Override
        public String getScheme() {
            return "faulty";
        }

        @Override
        public FileSystem create(URI uri) {
            return new FaultyFileSystem(Publication.RENAME);
        }
    }

    /** Registered for the {@code faultylink} scheme through the service loader. */
    public static final class LinkFactory implements FileSystemFactory {
        @Override
        public String getScheme() {
            return "faultylink";
        }

        @Override
        public FileSystem create(URI uri) {
            return new FaultyFileSystem(Publication.LINK);
        }
    }
}
