package dev.tarn.assembly.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * A table's published snapshots as its snapshot directory shows them ({@code snapshot-<id>} files,
 * each created atomically and never changed; the {@code LATEST} hint is not trusted).
 */
record SnapshotFiles(Path dir) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The highest published snapshot id, 0 while there is none. */
    long latestId() throws IOException {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(n -> n.matches("snapshot-\\d+"))
                    .mapToLong(n -> Long.parseLong(n.substring("snapshot-".length())))
                    .max()
                    .orElse(0);
        }
    }

    /** The commit time a snapshot records ({@code timeMillis}, SPEC section 3). */
    long commitTimeMillis(long id) throws IOException {
        return JSON.readTree(dir.resolve("snapshot-" + id).toFile()).path("timeMillis").asLong();
    }
}
