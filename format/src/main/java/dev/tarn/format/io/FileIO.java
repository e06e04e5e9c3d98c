package dev.tarn.format.io;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Serializable;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;

/**
 * The file operations Tarn needs from a file system or object store. {@link #flinkFileSystems}
 * serves every scheme Flink has a file system for; tests wrap it to inject failures.
 *
 * <p>Every method may be called from many threads at once. A failed call leaves no partial file
 * visible under the target path, except for {@link #newOutputStream} whose caller owns cleanup.
 */
public interface FileIO extends Serializable {

    FSDataInputStream newInputStream(Path path) throws IOException;

    /** Creates a new file for writing; fails if it exists. The caller deletes it on failure. */
    FSDataOutputStream newOutputStream(Path path) throws IOException;

    /**
     * Gives the file {@code source} a second name, {@code target} (a hard link), unless a file is
     * at {@code target}. Atomic and exclusive where the file system has hard links (POSIX).
     *
     * @return false if a file is at {@code target} (nothing changed)
     * @throws UnsupportedOperationException if the file system has no hard links
     */
    boolean link(Path source, Path target) throws IOException;

    /**
     * Creates {@code path} with {@code content} unless an object is there, in one atomic step: on
     * an S3-compatible store a conditional put ({@code If-None-Match: *}), once the store is proven
     * to honour it. The object-store half of {@code SnapshotCommit}.
     *
     * @return false if an object is at {@code path} (nothing changed)
     * @throws IOException naming the object and the cause if the store refuses or does not honour
     *     the condition, or if the outcome is unknown (then the object may exist)
     * @throws UnsupportedOperationException where the store has no such put (file systems, which
     *     use {@link #link} or {@link #rename})
     */
    default boolean createIfAbsent(Path path, byte[] content) throws IOException {
        throw new UnsupportedOperationException("No conditional put for " + path);
    }

    /**
     * Proves that {@link #createIfAbsent} works under {@code dir}: the store is reachable with the
     * settings given and refuses a second conditional put of a probe object. Once per store and
     * process.
     *
     * @throws IOException naming bucket, key and cause otherwise
     */
    default void checkCreateIfAbsent(Path dir) throws IOException {
        throw new UnsupportedOperationException("No conditional put for " + dir);
    }

    /**
     * The name of a temporary file written beside {@code name} before it is moved or linked onto
     * it: hidden (a leading dot, which orphan cleanup and listings pass over) and unique.
     */
    static String temporaryName(String name) {
        return "." + name + "." + UUID.randomUUID() + ".tmp";
    }

    /**
     * Replaces {@code path} with {@code content} atomically (readers see old or new, never a mix).
     * On an object store the file is written directly under its name: a PUT is atomic for readers,
     * and no temporary file, copy or delete is needed.
     */
    void overwrite(Path path, byte[] content) throws IOException;

    /** What a streamed {@link #overwrite(Path, Content)} writes. */
    @FunctionalInterface
    interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /**
     * As {@link #overwrite(Path, byte[])}, for content too large to want in one array (a metadata
     * file that grows with the snapshots kept): where the file system allows, it goes to the file
     * through a small buffer; elsewhere it is gathered and written as one array, the default.
     */
    default void overwrite(Path path, Content content) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        content.writeTo(bytes);
        overwrite(path, bytes.toByteArray());
    }

    /**
     * Writes the new file {@code path}, whose name is unique and which no reader opens before a
     * later publish names it (a manifest, a manifest list): on a file system straight under its
     * name, without the temporary file and move that {@link #overwrite} needs for a name readers
     * know. A failed call deletes what it wrote; a crash may leave part of the file, under a name
     * nothing references. Where there is nothing cheaper, {@link #overwrite}, which is the default.
     */
    default void writeNew(Path path, byte[] content) throws IOException {
        overwrite(path, content);
    }

    /**
     * Replaces a small hint file that readers may find missing for a moment (they then look for
     * what it names, as Iceberg's readers list the versions when {@code version-hint.text} is
     * missing): {@link #overwrite} where that is cheapest, which is the default.
     */
    default void replaceHint(Path path, byte[] content) throws IOException {
        overwrite(path, content);
    }

    byte[] readAllBytes(Path path) throws IOException;

    boolean exists(Path path) throws IOException;

    /** Returns the status of every direct child, or an empty array if the directory is missing. */
    FileStatus[] list(Path dir) throws IOException;

    FileStatus status(Path path) throws IOException;

    /** Deletes a file or directory; returns false if nothing was there. */
    boolean delete(Path path, boolean recursive) throws IOException;

    /**
     * Deletes a file if it is there, without saying whether it was: one request on an object store,
     * where {@link #delete} first asks whether the key is a file or a directory.
     */
    default void deleteIfExists(Path path) throws IOException {
        delete(path, false);
    }

    void mkdirs(Path dir) throws IOException;

    /**
     * Renames unless the target exists; returns false if it does or the source is missing. The
     * check precedes the rename, so two concurrent renames onto one name are excluded only where
     * the file system's rename refuses an existing target (HDFS); see {@code SnapshotCommit}.
     */
    boolean rename(Path from, Path to) throws IOException;

    /**
     * The file I/O of Flink's file systems: every scheme Flink has one for (local files, HDFS,
     * Flink's S3 plugins), each location served by the implementation chosen once for its file
     * system (local files, S3-compatible stores, any other). Serializable with the table it serves.
     */
    static FileIO flinkFileSystems() {
        return new PerLocationFileIO(Map.of());
    }

    /**
     * As {@link #flinkFileSystems()}, with settings of the object store ({@link S3Options}, a
     * catalog's) over those of Flink's configuration for Tarn's commit path.
     */
    static FileIO flinkFileSystems(Map<String, String> storeOptions) {
        return new PerLocationFileIO(S3Options.of(storeOptions));
    }

    /**
     * Settings for reaching the object store this I/O serves ({@link S3Options} keys) that win over
     * the config.yaml of Flink's processes; none by default.
     */
    default Map<String, String> storeOptions() {
        return Map.of();
    }

    /**
     * This I/O with the object-store settings of {@code configuration} (the Flink configuration a
     * catalog or table factory is given: a session's, an embedded program's) under its own {@link
     * #storeOptions}, so they reach the tasks it is shipped to, whose config.yaml may lack them.
     * Itself where it has no such settings.
     */
    default FileIO withFlinkConfiguration(ReadableConfig configuration) {
        return this;
    }
}
