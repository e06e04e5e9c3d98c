package dev.tarn.format.io;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import org.apache.flink.core.fs.Path;

/**
 * {@link FileIO} of the local file system: as {@link FlinkFileIO}, but with hard links (the
 * exclusive step of {@code FileSystemSnapshotCommit}) and a replacement that is one atomic move of
 * the temporary file onto the name, so a reader never finds the name missing.
 */
final class LocalFileIO extends FlinkFileIO {

    private static final long serialVersionUID = 1L;

    @Override
    public boolean link(Path source, Path target) throws IOException {
        try {
            Files.createLink(local(target), local(source));
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        }
    }

    /**
     * Writes a temporary file beside {@code path} ({@link FileIO#temporaryName}) and moves it onto
     * the name in one rename. Straight through the JDK: Flink's local {@code create} checks that
     * the file is absent and makes its directory first, and the generic replacement checks for the
     * temporary file after the move, three file-system calls per write that a commit of several
     * files paid each time.
     */
    @Override
    public void overwrite(Path path, byte[] content) throws IOException {
        replace(path, out -> out.write(content));
    }

    /** As the other overwrite, the content going to the temporary file through a 64 KiB buffer. */
    @Override
    public void overwrite(Path path, Content content) throws IOException {
        replace(
                path,
                out -> {
                    BufferedOutputStream buffered = new BufferedOutputStream(out, 1 << 16);
                    content.writeTo(buffered);
                    buffered.flush();
                });
    }

    private static void replace(Path path, Content content) throws IOException {
        java.nio.file.Path target = local(path);
        java.nio.file.Path tmp =
                target.resolveSibling(FileIO.temporaryName(target.getFileName().toString()));
        writeMakingParent(tmp, content);
        try {
            Files.move(
                    tmp,
                    target,
                    StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
    }

    /** One create of a file that must not exist, its parent made if missing; no move. */
    @Override
    public void writeNew(Path path, byte[] content) throws IOException {
        writeMakingParent(local(path), out -> out.write(content));
    }

    /** One create of {@code file}, which must not exist; its parent made if missing. */
    private static void writeMakingParent(java.nio.file.Path file, Content content)
            throws IOException {
        try {
            write(file, content);
        } catch (NoSuchFileException e) {
            Files.createDirectories(file.getParent());
            write(file, content);
        }
    }

    private static void write(java.nio.file.Path file, Content content) throws IOException {
        try (OutputStream out =
                Files.newOutputStream(
                        file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            content.writeTo(out);
        } catch (NoSuchFileException | FileAlreadyExistsException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            throw e;
        }
    }

    /**
     * Deletes the old hint first, as Iceberg's own path tables do ({@code
     * HadoopTableOperations.writeVersionHint}), so that the move lands on a free name: a rename
     * that replaces a file makes ext4 write the new file's data out first (its {@code
     * auto_da_alloc}), which costs a commit as much as the rest of its Iceberg step.
     */
    @Override
    public void replaceHint(Path path, byte[] content) throws IOException {
        Files.deleteIfExists(local(path));
        overwrite(path, content);
    }

    private static java.nio.file.Path local(Path path) {
        return Paths.get(path.toUri().getPath());
    }
}
