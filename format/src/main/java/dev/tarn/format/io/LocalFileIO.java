package dev.tarn.format.io;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
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

    @Override
    public void overwrite(Path path, byte[] content) throws IOException {
        replace(
                path,
                content,
                (tmp, target) ->
                        Files.move(
                                local(tmp),
                                local(target),
                                StandardCopyOption.ATOMIC_MOVE,
                                StandardCopyOption.REPLACE_EXISTING));
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
