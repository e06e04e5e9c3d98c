package dev.tarn.format.deletion;

import dev.tarn.format.io.FileIO;
import dev.tarn.format.io.TablePaths;
import dev.tarn.format.manifest.DeletionFile;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.core.fs.Path;

/**
 * The index files of one table, {@code <table>/index/dv-<uuid>.puffin} (SPEC.md, "Deletion
 * vectors"): writes the vectors of some data files to a new one, and reads one vector back by its
 * place alone, without the footer.
 */
public final class IndexFiles {

    /** The prefix of index file names. */
    public static final String PREFIX = "dv-";

    private final DeletionIndexFile files;
    private final Path dir;

    public IndexFiles(FileIO io, TablePaths paths) {
        this.files = new DeletionIndexFile(io);
        this.dir = paths.indexDir();
    }

    public Path path(String indexFile) {
        return new Path(dir, indexFile);
    }

    /**
     * Writes {@code vectors} (by data file name; none empty) to a new index file.
     *
     * @return where each data file's vector lies, in the map's order
     */
    public Map<String, DeletionFile> write(Map<String, DeletionVector> vectors) throws IOException {
        String name = PREFIX + UUID.randomUUID() + ".puffin";
        List<DeletionVectorBlob> blobs = files.write(path(name), vectors);
        Map<String, DeletionFile> places = new LinkedHashMap<>();
        for (DeletionVectorBlob b : blobs) {
            places.put(
                    b.dataFile(), new DeletionFile(name, b.offset(), b.length(), b.cardinality()));
        }
        return places;
    }

    /**
     * The vector of {@code dataFile} at {@code place}.
     *
     * @throws IOException naming the data file and the index file if the index file is missing or
     *     the blob is corrupt
     */
    public DeletionVector read(String dataFile, DeletionFile place) throws IOException {
        return files.read(
                path(place.indexFile()),
                new DeletionVectorBlob(
                        dataFile, place.offset(), place.length(), place.cardinality()));
    }
}
