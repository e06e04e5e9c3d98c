package dev.tarn.assembly.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A table's published snapshots as the object store holds them: {@code snapshot-<id>} objects, each
 * created by a conditional put and never changed, read over the store's HTTP API (path-style,
 * unsigned: S3Mock does not check signatures). The latest id is found by probing ids upward, as
 * Tarn does, never by a LIST; the {@code LATEST} hint is not trusted.
 */
final class SnapshotObjects {

    /** What a snapshot says of the commit that published it. */
    record Commit(long id, String user, long identifier, String kind) {}

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI dir;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private long latest;

    /** {@code dir}: the URL of the snapshot "directory", ending with {@code /}. */
    SnapshotObjects(URI dir) {
        this.dir = dir;
    }

    URI dir() {
        return dir;
    }

    /** The highest published snapshot id, 0 while there is none. */
    long latestId() throws IOException, InterruptedException {
        while (status("HEAD", latest + 1) == 200) {
            latest++;
        }
        return latest;
    }

    /** The commits of snapshots 1 to {@code last}, failing on a missing one. */
    List<Commit> commits(long last) throws IOException, InterruptedException {
        List<Commit> commits = new ArrayList<>();
        for (long id = 1; id <= last; id++) {
            JsonNode s = read(id);
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
    long commitTimeMillis(long id) throws IOException, InterruptedException {
        return read(id).path("timeMillis").asLong();
    }

    private JsonNode read(long id) throws IOException, InterruptedException {
        HttpResponse<byte[]> response =
                http.send(request("GET", id), HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(
                    "GET "
                            + dir.resolve("snapshot-" + id)
                            + " answered "
                            + response.statusCode()
                            + ", expected a published snapshot: "
                            + new String(response.body()));
        }
        return JSON.readTree(response.body());
    }

    private int status(String method, long id) throws IOException, InterruptedException {
        return http.send(request(method, id), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private HttpRequest request(String method, long id) {
        return HttpRequest.newBuilder(dir.resolve("snapshot-" + id))
                .timeout(Duration.ofSeconds(10))
                .method(method, HttpRequest.BodyPublishers.noBody())
                .build();
    }
}
