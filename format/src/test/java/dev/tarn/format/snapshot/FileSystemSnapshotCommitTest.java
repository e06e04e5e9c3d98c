package dev.tarn.format.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.io.FileIO;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The exclusive create the commit protocol rests on, on the local file system. */
class FileSystemSnapshotCommitTest {

    @TempDir java.nio.file.Path tempDir;

    private final FileIO io = FileIO.flinkFileSystems();
    private final SnapshotCommit commit = SnapshotCommit.forFileSystem(io);

    private Path path(String name) {
        return new Path(new Path(tempDir.toUri()), name);
    }

    private List<String> names() throws IOException {
        try (Stream<java.nio.file.Path> files = Files.list(tempDir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void publishNeverReplacesAFile() throws IOException {
        assertThat(commit.publish(path("snapshot-1"), bytes("first"))).isTrue();
        assertThat(commit.publish(path("snapshot-1"), bytes("second"))).isFalse();

        assertThat(io.readAllBytes(path("snapshot-1"))).isEqualTo(bytes("first"));
        assertThat(names()).containsExactly("snapshot-1");
    }

    @Test
    void onlyOneOfManyConcurrentCreatesWins() throws Exception {
        int threads = 8;
        for (int round = 0; round < 20; round++) {
            Path target = path("snapshot-" + round);
            CyclicBarrier start = new CyclicBarrier(threads);
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                byte[] content = bytes("writer " + t);
                results.add(
                        pool.submit(
                                () -> {
                                    start.await();
                                    return commit.publish(target, content);
                                }));
            }
            List<String> winners = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                if (results.get(t).get()) {
                    winners.add("writer " + t);
                }
            }
            pool.shutdown();
            assertThat(winners).as("round %d", round).hasSize(1);
            assertThat(new String(io.readAllBytes(target), StandardCharsets.UTF_8))
                    .isEqualTo(winners.get(0));
        }
        // No temporary file is left behind by winners or losers.
        assertThat(names()).allMatch(n -> n.startsWith("snapshot-")).hasSize(20);
    }

    @Test
    void withoutHardLinksItPublishesByRenameAndRefusesAnExistingFile() throws IOException {
        FileIO noLinks =
                (FileIO)
                        Proxy.newProxyInstance(
                                FileIO.class.getClassLoader(),
                                new Class<?>[] {FileIO.class},
                                (proxy, method, args) -> {
                                    if (method.getName().equals("link")) {
                                        throw new UnsupportedOperationException("no hard links");
                                    }
                                    return method.invoke(io, args);
                                });
        SnapshotCommit renaming = SnapshotCommit.forFileSystem(noLinks);

        assertThat(renaming.publish(path("snapshot-1"), bytes("first"))).isTrue();
        assertThat(renaming.publish(path("snapshot-1"), bytes("second"))).isFalse();

        assertThat(io.readAllBytes(path("snapshot-1"))).isEqualTo(bytes("first"));
        assertThat(names()).containsExactly("snapshot-1");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
