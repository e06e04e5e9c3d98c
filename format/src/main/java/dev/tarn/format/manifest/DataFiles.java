package dev.tarn.format.manifest;

import dev.tarn.format.io.FileIO;
import java.io.IOException;
import java.util.Collection;
import org.apache.flink.core.fs.Path;

/** Operations on sets of {@link DataFile}s. */
public final class DataFiles {

    private DataFiles() {}

    /**
     * Deletes data files no snapshot references (a failed or abandoned write's), ignoring errors: a
     * file left behind is unreferenced, and orphan cleanup removes it later.
     */
    public static void deleteUnreferenced(FileIO io, Path dir, Collection<DataFile> files) {
        for (DataFile file : files) {
            try {
                io.delete(new Path(dir, file.fileName()), false);
            } catch (IOException ignored) {
                // See above: harmless, and the caller is already handling a failure or an end.
            }
        }
    }
}
