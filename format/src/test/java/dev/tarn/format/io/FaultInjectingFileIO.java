package dev.tarn.format.io;

import java.io.IOException;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;

/**
 * A {@link FileIO} over {@link FileIO#flinkFileSystems} that counts calls and injects failures, as
 * Iceberg's {@code TestTables.failCommits(n)}. A fault names an operation and the paths it applies
 * to, and fires on the n-th matching call (or on every one); it throws before the real call
 * (nothing happens on storage) or after it (the call took effect, but the caller cannot know). A
 * hook runs arbitrary code before a matching call, e.g. a racing committer. Thread-safe.
 */
public final class FaultInjectingFileIO implements FileIO {

    private static final long serialVersionUID = 1L;

    /** The operations of {@link FileIO}, one per method. */
    public enum Op {
        NEW_INPUT_STREAM,
        NEW_OUTPUT_STREAM,
        LINK,
        OVERWRITE,
        READ_ALL_BYTES,
        EXISTS,
        LIST,
        STATUS,
        DELETE,
        MKDIRS,
        RENAME
    }

    /** Code run before a matching call; it may use the real file system. */
    @FunctionalInterface
    public interface Hook {
        void run(Path path, FileIO real) throws IOException;
    }

    private record Rule(
            Op op,
            Predicate<Path> paths,
            int nth,
            boolean afterCall,
            Hook hook,
            AtomicInteger matches) {

        /** Whether this call is the one the rule fires on (every call when nth is 0). */
        boolean fires() {
            int seen = matches.incrementAndGet();
            return nth == 0 || seen == nth;
        }
    }

    private final FileIO real = FileIO.flinkFileSystems();
    private final transient List<Rule> rules = new CopyOnWriteArrayList<>();
    private final transient Queue<Event> log = new ConcurrentLinkedQueue<>();

    private record Event(Op op, Path path) {}

    /** Paths whose last segment starts with {@code prefix}. */
    public static Predicate<Path> named(String prefix) {
        return p -> p.getName().startsWith(prefix);
    }

    /** Manifest files proper, not manifest lists (whose names also start with "manifest-"). */
    public static Predicate<Path> manifestFiles() {
        return named("manifest-").and(named("manifest-list-").negate());
    }

    /**
     * Throws an IOException instead of the {@code nth} (1-based) call of {@code op} on {@code
     * paths}.
     */
    public FaultInjectingFileIO failNth(Op op, Predicate<Path> paths, int nth) {
        rules.add(new Rule(op, paths, requirePositive(nth), false, null, new AtomicInteger()));
        return this;
    }

    /** Throws an IOException instead of every call of {@code op} on {@code paths}. */
    public FaultInjectingFileIO failAlways(Op op, Predicate<Path> paths) {
        rules.add(new Rule(op, paths, 0, false, null, new AtomicInteger()));
        return this;
    }

    /**
     * Lets the {@code nth} call of {@code op} on {@code paths} take effect, then throws an
     * IOException: the outcome is unknown to the caller.
     */
    public FaultInjectingFileIO failAfterNth(Op op, Predicate<Path> paths, int nth) {
        rules.add(new Rule(op, paths, requirePositive(nth), true, null, new AtomicInteger()));
        return this;
    }

    /**
     * Runs {@code hook} before the {@code nth} call (0: every call) of {@code op} on {@code paths}.
     */
    public FaultInjectingFileIO beforeNth(Op op, Predicate<Path> paths, int nth, Hook hook) {
        rules.add(new Rule(op, paths, nth, false, hook, new AtomicInteger()));
        return this;
    }

    /** Removes every fault and hook; call counts are kept. */
    public void heal() {
        rules.clear();
    }

    /** How many times {@code op} was called, failed calls included. */
    public int calls(Op op) {
        return calls(op, p -> true);
    }

    /** How many times {@code op} was called on {@code paths}, failed calls included. */
    public int calls(Op op, Predicate<Path> paths) {
        return (int) log.stream().filter(e -> e.op() == op && paths.test(e.path())).count();
    }

    /** Every call since the last {@link #resetCounts}, in order: operation and file name. */
    public List<String> calls() {
        return log.stream().map(e -> e.op() + " " + e.path().getName()).toList();
    }

    public void resetCounts() {
        log.clear();
    }

    private static int requirePositive(int nth) {
        if (nth < 1) {
            throw new IllegalArgumentException("Calls are counted from 1, got " + nth);
        }
        return nth;
    }

    @FunctionalInterface
    private interface Call<T> {
        T run() throws IOException;
    }

    private <T> T call(Op op, Path path, Call<T> delegate) throws IOException {
        log.add(new Event(op, path));
        Rule failAfter = null;
        for (Rule rule : rules) {
            if (rule.op() != op || !rule.paths().test(path) || !rule.fires()) {
                continue;
            }
            if (rule.hook() != null) {
                rule.hook().run(path, real);
            } else if (rule.afterCall()) {
                failAfter = rule;
            } else {
                throw new IOException("Injected failure of " + op + " on " + path);
            }
        }
        T result = delegate.run();
        if (failAfter != null) {
            throw new IOException("Injected failure after " + op + " on " + path);
        }
        return result;
    }

    @Override
    public FSDataInputStream newInputStream(Path path) throws IOException {
        return call(Op.NEW_INPUT_STREAM, path, () -> real.newInputStream(path));
    }

    @Override
    public FSDataOutputStream newOutputStream(Path path) throws IOException {
        return call(Op.NEW_OUTPUT_STREAM, path, () -> real.newOutputStream(path));
    }

    @Override
    public boolean link(Path source, Path target) throws IOException {
        return call(Op.LINK, target, () -> real.link(source, target));
    }

    @Override
    public void overwrite(Path path, byte[] content) throws IOException {
        call(
                Op.OVERWRITE,
                path,
                () -> {
                    real.overwrite(path, content);
                    return null;
                });
    }

    @Override
    public byte[] readAllBytes(Path path) throws IOException {
        return call(Op.READ_ALL_BYTES, path, () -> real.readAllBytes(path));
    }

    @Override
    public boolean exists(Path path) throws IOException {
        return call(Op.EXISTS, path, () -> real.exists(path));
    }

    @Override
    public FileStatus[] list(Path dir) throws IOException {
        return call(Op.LIST, dir, () -> real.list(dir));
    }

    @Override
    public FileStatus status(Path path) throws IOException {
        return call(Op.STATUS, path, () -> real.status(path));
    }

    @Override
    public boolean delete(Path path, boolean recursive) throws IOException {
        return call(Op.DELETE, path, () -> real.delete(path, recursive));
    }

    @Override
    public void mkdirs(Path dir) throws IOException {
        call(
                Op.MKDIRS,
                dir,
                () -> {
                    real.mkdirs(dir);
                    return null;
                });
    }

    @Override
    public boolean rename(Path from, Path to) throws IOException {
        return call(Op.RENAME, to, () -> real.rename(from, to));
    }
}
