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

/** The few calls of Flink's REST API the cluster test makes: task managers, jobs, failures. */
final class ClusterRest {

    /** A job as the overview lists it. */
    record Job(String id, String name, String state, long startTime) {}

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String base;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    ClusterRest(String host, int port) {
        this.base = "http://" + host + ":" + port;
    }

    String address() {
        return base;
    }

    /** Free slots of the registered task managers, or -1 while the REST endpoint is not up. */
    int freeSlots() {
        try {
            int free = 0;
            for (JsonNode tm : get("/taskmanagers").path("taskmanagers")) {
                free += tm.path("freeSlots").asInt();
            }
            return free;
        } catch (IOException e) {
            return -1;
        }
    }

    List<Job> jobs() throws IOException {
        List<Job> jobs = new ArrayList<>();
        for (JsonNode job : get("/jobs/overview").path("jobs")) {
            jobs.add(
                    new Job(
                            job.path("jid").asText(),
                            job.path("name").asText(),
                            job.path("state").asText(),
                            job.path("start-time").asLong()));
        }
        return jobs;
    }

    /** The stack traces of the failures in a job's exception history, newest first. */
    List<String> failures(String jobId) throws IOException {
        List<String> traces = new ArrayList<>();
        JsonNode node = get("/jobs/" + jobId + "/exceptions?maxExceptions=3");
        for (JsonNode entry : node.path("exceptionHistory").path("entries")) {
            traces.add(entry.path("stacktrace").asText());
        }
        return traces;
    }

    /** A job's failures as text for a failure message. */
    String exceptions(String jobId) {
        try {
            List<String> traces = failures(jobId);
            return traces.isEmpty()
                    ? "(job " + jobId + " has no failure)"
                    : "Failures of job " + jobId + ":\n" + String.join("\n", traces);
        } catch (IOException e) {
            return "(no failures of job " + jobId + ": " + e + ")";
        }
    }

    /** The id of the checkpoint the job last restored from, or -1 if it never restored. */
    long restoredCheckpoint(String jobId) throws IOException {
        JsonNode restored = get("/jobs/" + jobId + "/checkpoints").path("latest").path("restored");
        return restored.isMissingNode() || restored.isNull() ? -1 : restored.path("id").asLong();
    }

    void cancel(String jobId) throws IOException {
        send(
                HttpRequest.newBuilder(URI.create(base + "/jobs/" + jobId + "?mode=cancel"))
                        .method("PATCH", HttpRequest.BodyPublishers.noBody()));
    }

    private JsonNode get(String path) throws IOException {
        return JSON.readTree(send(HttpRequest.newBuilder(URI.create(base + path)).GET()));
    }

    private String send(HttpRequest.Builder request) throws IOException {
        try {
            HttpResponse<String> response =
                    http.send(
                            request.timeout(Duration.ofSeconds(5)).build(),
                            HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                throw new IOException(
                        "Flink REST "
                                + response.request().uri()
                                + " answered "
                                + response.statusCode()
                                + ": "
                                + response.body());
            }
            return response.body();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted calling Flink REST at " + base, e);
        }
    }
}
