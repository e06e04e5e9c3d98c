package dev.tarn.format.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.FileNotFoundException;
import java.io.IOException;
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
class FlinkFileIOTest {

    @TempDir java.nio.file.Path tempDir;

    private final FlinkFileIO io = new FlinkFileIO();

    private Path path(String name) {
        return new Path(new Path(tempDir.toUri()), name);
    }

    private List<String> names() throws IOException {
        try (Stream<java.nio.file.Path> files = Files.list(tempDir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void tryCreateExclusiveNeverReplacesAFile() throws IOException {
        assertThat(io.tryCreateExclusive(path("snapshot-1"), bytes("first"))).isTrue();
        assertThat(io.tryCreateExclusive(path("snapshot-1"), bytes("second"))).isFalse();

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
                                    return io.tryCreateExclusive(target, content);
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
    void overwriteReplacesWholeContent() throws IOException {
        io.overwrite(path("LATEST"), bytes("12345"));
        io.overwrite(path("LATEST"), bytes("7"));

        assertThat(io.readAllBytes(path("LATEST"))).isEqualTo(bytes("7"));
        assertThat(names()).containsExactly("LATEST");
    }

    @Test
    void missingFilesAndDirectories() throws IOException {
        assertThat(io.list(path("nowhere"))).isEmpty();
        assertThat(io.exists(path("nothing"))).isFalse();
        assertThat(io.delete(path("nothing"), false)).isFalse();
        assertThatThrownBy(() -> io.readAllBytes(path("nothing")))
                .isInstanceOf(FileNotFoundException.class)
                .hasMessageEndingWith("nothing (No such file or directory)");
    }

    @Test
    void newOutputStreamRefusesAnExistingFile() throws IOException {
        io.tryCreateExclusive(path("data-1.parquet"), bytes("x"));
        assertThatThrownBy(() -> io.newOutputStream(path("data-1.parquet")).close())
                .isInstanceOf(IOException.class)
                .hasMessage("File already exists: " + path("data-1.parquet"));
        assertThat(io.readAllBytes(path("data-1.parquet"))).isEqualTo(bytes("x"));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
