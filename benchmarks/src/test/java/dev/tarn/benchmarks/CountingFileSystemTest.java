package dev.tarn.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CountingFileSystemTest {

    @TempDir Path dir;

    @Test
    void countsEachCallByKindUnderTheWatchedDirectoryOnly() throws Exception {
        Path watched = Files.createDirectories(dir.resolve("watched"));
        Path other = Files.createDirectories(dir.resolve("watched-not"));
        FileSystemRequests requests = CountingFileSystem.watch(watched);
        org.apache.flink.core.fs.Path file =
                new org.apache.flink.core.fs.Path(CountingFileSystem.uri(watched) + "/f");
        FileSystem fs = file.getFileSystem();
        try (OutputStream out = fs.create(file, FileSystem.WriteMode.NO_OVERWRITE)) {
            out.write(1);
        }
        fs.exists(file);
        fs.exists(file);
        fs.open(file).close();
        fs.exists(new org.apache.flink.core.fs.Path(CountingFileSystem.uri(other) + "/f"));

        assertThat(requests.byKind()).isEqualTo(Map.of("create", 1L, "exists", 2L, "open", 1L));
        assertThat(requests.total()).isEqualTo(4);
        requests.reset();
        assertThat(requests.total()).isZero();
    }

    @Test
    void listedAndStatusPathsKeepTheSchemeSoTheirUseIsCounted() throws Exception {
        Files.writeString(dir.resolve("data"), "x");
        FileSystemRequests requests = CountingFileSystem.watch(dir);
        org.apache.flink.core.fs.Path root =
                new org.apache.flink.core.fs.Path(CountingFileSystem.uri(dir));
        FileStatus[] listed = root.getFileSystem().listStatus(root);

        assertThat(listed).hasSize(1);
        org.apache.flink.core.fs.Path child = listed[0].getPath();
        assertThat(child.toUri().getScheme()).isEqualTo(CountingFileSystem.SCHEME);
        assertThat(root.getFileSystem().getFileStatus(child).getPath().toUri().getScheme())
                .isEqualTo(CountingFileSystem.SCHEME);
        child.getFileSystem().open(child).close();
        assertThat(requests.byKind()).isEqualTo(Map.of("list", 1L, "status", 1L, "open", 1L));
    }
}
