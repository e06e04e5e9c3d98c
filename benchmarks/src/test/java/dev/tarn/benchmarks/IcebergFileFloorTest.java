package dev.tarn.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The floor of the Iceberg step writes the files a snapshot needs, sized as the reference's. */
class IcebergFileFloorTest {

    @TempDir Path dir;

    private Path reference() throws Exception {
        Path metadata = Files.createDirectories(dir.resolve("reference/metadata"));
        Files.write(metadata.resolve("v3.metadata.json"), new byte[300]);
        Files.write(metadata.resolve("v4.metadata.json"), new byte[400]);
        Files.write(metadata.resolve("snap-3-abc.avro"), new byte[30]);
        Files.write(metadata.resolve("snap-4-def.avro"), new byte[40]);
        Files.write(metadata.resolve("x-m0.avro"), new byte[7]);
        Files.write(metadata.resolve("y-m0.avro"), new byte[9]);
        Files.write(metadata.resolve("z-m0.avro"), new byte[8]);
        Files.write(metadata.resolve("version-hint.text"), "4".getBytes());
        return dir.resolve("reference");
    }

    @Test
    void writesTheFilesOfASnapshotSizedAsTheReferencesOfTheSameSnapshot() throws Exception {
        IcebergFileFloor.Writes floor =
                new IcebergFileFloor.Writes(dir.resolve("floor/metadata"), reference());

        assertThat(floor.sizes(3)).containsExactly(8, 30, 300);
        assertThat(floor.sizes(9)).containsExactly(8, 40, 400);
        floor.write(4, floor.sizes(4));

        Path out = dir.resolve("floor/metadata");
        assertThat(Files.size(out.resolve("floor-4-m0.avro"))).isEqualTo(8);
        assertThat(Files.size(out.resolve("snap-4-floor.avro"))).isEqualTo(40);
        assertThat(Files.size(out.resolve("v4.metadata.json"))).isEqualTo(400);
        assertThat(Files.readString(out.resolve("version-hint.text"))).isEqualTo("4");
        try (var files = Files.list(out)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder(
                            "floor-4-m0.avro",
                            "snap-4-floor.avro",
                            "v4.metadata.json",
                            "version-hint.text");
        }
    }

    @Test
    void refusesAReferenceWithoutIcebergFiles() throws Exception {
        Path empty = Files.createDirectories(dir.resolve("empty/metadata")).getParent();

        assertThatThrownBy(() -> new IcebergFileFloor.Writes(dir.resolve("f"), empty))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(
                        "The floor of the Iceberg step needs the Iceberg files of a Tarn table"
                                + " with the option in "
                                + empty
                                + ", found none");
    }
}
