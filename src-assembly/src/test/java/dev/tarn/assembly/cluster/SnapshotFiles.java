package dev.tarn.assembly.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A table's published snapshots as its snapshot directory shows them ({@code snapshot-<id>} files,
 * each created atomically and never changed; the {@code LATEST} hint is not trusted).
 */
record SnapshotFiles(Path dir) {

    /** What a snapshot says of the commit that published it. */
    record Commit(long id, String user, long identifier, String kind) {}

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

    /** The commits of snapshots 1 to {@code last}, failing on a missing one. */
    List<Commit> commits(long last) throws IOException {
        List<Commit> commits = new ArrayList<>();
        for (long id = 1; id <= last; id++) {
            JsonNode s = JSON.readTree(dir.resolve("snapshot-" + id).toFile());
            commits.add(
                    new Commit(
                            s.path("id").asLong(),
                            s.path("commitUser").asText(),
                            s.path("commitIdentifier").asLong(),
                            s.path("commitKind").asText()));
        }
        return commits;
    }

    /** The commit time a snapshot records ({@code timeMillis}, SPEC section 3). */
    long commitTimeMillis(long id) throws IOException {
        return JSON.readTree(dir.resolve("snapshot-" + id).toFile()).path("timeMillis").asLong();
    }
}
