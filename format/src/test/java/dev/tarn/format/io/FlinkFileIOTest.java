package dev.tarn.format.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.Path;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file operations the format relies on, as {@link FileIO#flinkFileSystems} serves them on local
 * files; the implementation each location gets, chosen once; and the generic one of file systems
 * without hard links.
 */
class FlinkFileIOTest {

    @TempDir java.nio.file.Path tempDir;

    private final FileIO io = FileIO.flinkFileSystems();

    private Path path(String name) {
        return new Path(new Path(tempDir.toUri()), name);
    }

    private List<String> names() throws IOException {
        try (Stream<java.nio.file.Path> files = Files.list(tempDir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void objectStoreSettingsOfAFlinkConfigurationGoUnderTheCatalogsOwn() {
        FileIO catalogs =
                FileIO.flinkFileSystems(
                        Map.of("s3.endpoint", "http://catalog:9000", "warehouse", "s3://b/w"));
        Configuration session =
                Configuration.fromMap(
                        Map.of(
                                "s3.endpoint", "http://session:9000",
                                "s3.access-key", "session-key",
                                "s3.secret-key", "session-secret",
                                "parallelism.default", "2"));

        assertThat(catalogs.withFlinkConfiguration(session).storeOptions())
                .as("the catalog's own key wins, the session's fill in, other keys stay out")
                .isEqualTo(
                        Map.of(
                                "s3.endpoint", "http://catalog:9000",
                                "s3.access-key", "session-key",
                                "s3.secret-key", "session-secret"));
        assertThat(catalogs.withFlinkConfiguration(new Configuration()))
                .as("nothing to add")
                .isSameAs(catalogs);
    }

    @Test
    void linkGivesAFileASecondNameButNeverReplacesOne() throws IOException {
        io.overwrite(path("a"), bytes("first"));
        io.overwrite(path("b"), bytes("second"));

        assertThat(io.link(path("a"), path("c"))).isTrue();
        assertThat(io.link(path("b"), path("c"))).isFalse();

        assertThat(io.readAllBytes(path("c"))).isEqualTo(bytes("first"));
        assertThat(names()).containsExactly("a", "b", "c");
    }

    @Test
    void overwriteReplacesWholeContent() throws IOException {
        io.overwrite(path("LATEST"), bytes("12345"));
        io.overwrite(path("LATEST"), bytes("7"));

        assertThat(io.readAllBytes(path("LATEST"))).isEqualTo(bytes("7"));
        assertThat(names()).containsExactly("LATEST");
    }

    @Test
    void aStreamedOverwriteReplacesWholeContentAndAFailedOneLeavesTheOldFile() throws IOException {
        // Larger than the buffer it goes through, so that it reaches the file in several writes.
        byte[] large = new byte[200_000];
        for (int i = 0; i < large.length; i++) {
            large[i] = (byte) (i * 31);
        }
        io.overwrite(path("v1.metadata.json"), bytes("old"));
        io.overwrite(
                path("v1.metadata.json"),
                out -> {
                    out.write(large, 0, 100_000);
                    out.write(large, 100_000, large.length - 100_000);
                });
        assertThat(io.readAllBytes(path("v1.metadata.json"))).isEqualTo(large);

        assertThatThrownBy(
                        () ->
                                io.overwrite(
                                        path("v1.metadata.json"),
                                        out -> {
                                            out.write(large);
                                            throw new IOException("disk full at byte 200000");
                                        }))
                .hasMessage("disk full at byte 200000");
        assertThat(io.readAllBytes(path("v1.metadata.json"))).isEqualTo(large);
        assertThat(names()).containsExactly("v1.metadata.json");
        // Where the location's file system has a directory missing, the stream starts again.
        io.overwrite(path("metadata/v2.metadata.json"), out -> out.write(large));
        assertThat(io.readAllBytes(path("metadata/v2.metadata.json"))).isEqualTo(large);
    }

    @Test
    void overwriteMakesAMissingDirectoryAndAFailedMoveLeavesNoTemporaryFile() throws IOException {
        io.overwrite(path("snapshot/LATEST"), bytes("3"));
        assertThat(io.readAllBytes(path("snapshot/LATEST"))).isEqualTo(bytes("3"));

        // A directory that holds a file cannot be replaced by a file.
        Files.createDirectories(tempDir.resolve("taken"));
        Files.write(tempDir.resolve("taken").resolve("x"), bytes("x"));
        assertThatThrownBy(() -> io.overwrite(path("taken"), bytes("1")))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("taken");
        assertThat(names()).containsExactly("snapshot", "taken");
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
        io.overwrite(path("data-1.parquet"), bytes("x"));
        assertThatThrownBy(() -> io.newOutputStream(path("data-1.parquet")).close())
                .isInstanceOf(IOException.class)
                .hasMessage("File already exists: " + path("data-1.parquet"));
        assertThat(io.readAllBytes(path("data-1.parquet"))).isEqualTo(bytes("x"));
    }

    @Test
    void aNewFileIsWrittenUnderItsNameItsDirectoryMadeButNeverOverAnother() throws IOException {
        Path manifest = path("metadata/m-1.avro");
        io.writeNew(manifest, bytes("manifest"));

        assertThat(io.readAllBytes(manifest)).isEqualTo(bytes("manifest"));
        assertThat(names()).as("no temporary file beside it").containsExactly("metadata");
        try (Stream<java.nio.file.Path> files = Files.list(tempDir.resolve("metadata"))) {
            assertThat(files.map(p -> p.getFileName().toString()).toList())
                    .containsExactly("m-1.avro");
        }
        assertThatThrownBy(() -> io.writeNew(manifest, bytes("other")))
                .isInstanceOf(java.nio.file.FileAlreadyExistsException.class)
                .hasMessageContaining("m-1.avro");
        assertThat(io.readAllBytes(manifest)).isEqualTo(bytes("manifest"));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void eachLocationGetsTheImplementationOfItsFileSystemOnce() throws IOException {
        PerLocationFileIO io =
                (PerLocationFileIO)
                        FileIO.flinkFileSystems(Map.of("s3.endpoint", "http://127.0.0.1:9"));

        FileIO local = io.of(path("a"));
        assertThat(local).isInstanceOf(LocalFileIO.class).isSameAs(io.of(path("b/c")));
        assertThat(io.of(new Path(tempDir.toString()))).isInstanceOf(LocalFileIO.class);
        FileIO store = io.of(new Path("s3://lake/db.db/t/snapshot/snapshot-1"));
        assertThat(store)
                .isInstanceOf(ObjectStoreFileIO.class)
                .isSameAs(io.of(new Path("s3://lake/other")));
        assertThat(store.storeOptions()).isEqualTo(Map.of("s3.endpoint", "http://127.0.0.1:9"));
        assertThat(io.of(new Path("s3a://other-lake/t"))).isInstanceOf(ObjectStoreFileIO.class);
        assertThat(io.of(new Path("s3a://other-lake/t"))).isNotSameAs(store);
    }

    @Test
    void aDeserializedFileIOChoosesAgain() throws Exception {
        io.overwrite(path("x"), bytes("before"));
        FileIO copy = InstantiationUtil.clone(io);

        copy.overwrite(path("x"), bytes("after"));
        assertThat(copy.readAllBytes(path("x"))).isEqualTo(bytes("after"));
        assertThat(((PerLocationFileIO) copy).of(path("x"))).isInstanceOf(LocalFileIO.class);
    }

    @Test
    void localFilesHaveNoConditionalPut() {
        assertThatThrownBy(() -> io.createIfAbsent(path("snapshot-1"), bytes("x")))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessage("No conditional put for " + path("snapshot-1"));
    }

    @Test
    void aFileSystemWithoutHardLinksReplacesAFileByRenamingANewOne() throws IOException {
        // The generic implementation, here over local files: no links, a rename onto the name.
        FileIO generic = new FlinkFileIO();
        generic.overwrite(path("LATEST"), bytes("12345"));
        generic.overwrite(path("LATEST"), bytes("7"));

        assertThat(generic.readAllBytes(path("LATEST"))).isEqualTo(bytes("7"));
        assertThat(names()).containsExactly("LATEST");
        assertThatThrownBy(() -> generic.link(path("LATEST"), path("copy")))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessage("File system file:/// of " + path("copy") + " has no hard links");
    }

    @Test
    void aHintIsReplacedWhetherOrNotOneIsThereAndNoTemporaryFileStays() throws IOException {
        io.replaceHint(path("hint"), "1".getBytes(StandardCharsets.UTF_8));
        io.replaceHint(path("hint"), "22".getBytes(StandardCharsets.UTF_8));

        assertThat(new String(io.readAllBytes(path("hint")), StandardCharsets.UTF_8))
                .isEqualTo("22");
        assertThat(names()).containsExactly("hint");
    }
}
