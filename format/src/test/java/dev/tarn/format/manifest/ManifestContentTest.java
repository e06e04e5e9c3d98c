package dev.tarn.format.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.io.FileIO;
import dev.tarn.format.io.TablePaths;
import dev.tarn.format.manifest.DataFile.ColumnStats;
import dev.tarn.format.manifest.DataFile.KeyRange;
import dev.tarn.format.manifest.DataFile.SequenceRange;
import dev.tarn.format.manifest.ManifestEntry.FileKind;
import dev.tarn.format.manifest.ManifestList.ManifestFileMeta;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.List;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every manifest entry records its file's content (SPEC.md, "Manifest body", version 2); entries of
 * version-1 manifests, which do not, take it from the file's name; an unknown content fails.
 */
class ManifestContentTest {

    @TempDir java.nio.file.Path dir;

    private ManifestFile manifests() {
        return new ManifestFile(FileIO.flinkFileSystems(), TablePaths.of(new Path(dir.toUri())));
    }

    private static DataFile file(String name, FileContent content) {
        return new DataFile(
                name,
                content,
                100,
                10,
                content == FileContent.DATA ? 1 : 0,
                3,
                new SequenceRange(1, 10),
                new ColumnStats(new Object[] {1L}, new Object[] {9L}, new long[] {0}),
                content == FileContent.DATA ? new KeyRange(new byte[] {1}, new byte[] {2}) : null);
    }

    private static ManifestEntry entry(FileKind kind, DataFile file) {
        return new ManifestEntry(kind, new Partition(List.of("d")), 1, 2, file);
    }

    @Test
    void everyContentRoundTripsWhateverTheFileIsCalled() throws IOException {
        // Names that say another content: what is read back is what was recorded.
        List<ManifestEntry> entries =
                List.of(
                        entry(FileKind.ADD, file("before-1.parquet", FileContent.DATA)),
                        entry(FileKind.DELETE, file("data-2.parquet", FileContent.CHANGELOG)),
                        entry(
                                FileKind.ADD,
                                file("changelog-3.parquet", FileContent.BEFORE_IMAGES)));
        ManifestFileMeta meta = manifests().write(entries, 3);

        assertThat(manifests().readFromFile(meta.fileName())).isEqualTo(entries);
        byte[] stored = Files.readAllBytes(dir.resolve("manifest").resolve(meta.fileName()));
        assertThat(stored[ManifestFile.MAGIC.length]).as("format version").isEqualTo((byte) 2);
    }

    @Test
    void version1ManifestsTakeTheContentFromTheFileNames() throws IOException {
        List<ManifestEntry> entries =
                List.of(
                        entry(FileKind.ADD, file("data-1.parquet", FileContent.DATA)),
                        entry(FileKind.ADD, file("changelog-2.parquet", FileContent.CHANGELOG)),
                        entry(FileKind.DELETE, file("before-3.parquet", FileContent.BEFORE_IMAGES)),
                        // Names that no writer gave are data files, as version 1 read them.
                        entry(FileKind.DELETE, file("other-4.parquet", FileContent.DATA)));
        Files.createDirectories(dir.resolve("manifest"));
        Files.write(dir.resolve("manifest/manifest-v1"), Version1Layout.manifest(entries));

        assertThat(manifests().readFromFile("manifest-v1")).isEqualTo(entries);
    }

    @Test
    void anUnknownContentFailsNamingTheManifestTheFileAndTheCode() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(body);
        out.writeInt(1);
        out.writeByte(FileKind.ADD.code());
        DataFileCodec.writePartition(out, Partition.EMPTY);
        out.writeInt(0);
        out.writeInt(1);
        LengthPrefixed.writeString(out, "index-1.bin");
        out.writeByte(9);
        out.flush();
        Files.createDirectories(dir.resolve("manifest"));
        Files.write(
                dir.resolve("manifest/manifest-next"),
                MetadataFrame.frame(ManifestFile.MAGIC, 2, body));
        Path path = manifests().path("manifest-next");

        assertThatThrownBy(() -> manifests().readFromFile("manifest-next"))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessage(
                        "Cannot read manifest file %s: Data file index-1.bin: Unknown file content"
                                + " code 9 (known: 0 DATA, 1 CHANGELOG, 2 BEFORE_IMAGES)",
                        path);
    }
}
