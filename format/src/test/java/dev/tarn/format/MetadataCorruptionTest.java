package dev.tarn.format;

import static dev.tarn.format.TestTables.ID_V;
import static dev.tarn.format.TestTables.append;
import static dev.tarn.format.TestTables.readAll;
import static dev.tarn.format.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.io.FileIO;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.TableRead;
import dev.tarn.format.snapshot.Snapshot;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A damaged, truncated or missing metadata file fails with an error that names the file and the
 * reason, never with garbage rows or a bare parser exception.
 */
class MetadataCorruptionTest {

    @TempDir java.nio.file.Path tempDir;

    private java.nio.file.Path tableDir;
    private Table table;

    /**
     * A table with two snapshots, copied to a new location before each test damages it: manifests
     * are cached per path, and a copy's paths have never been read.
     */
    @BeforeEach
    void setUp() throws IOException {
        java.nio.file.Path original = tempDir.resolve("original");
        Table written =
                TestTables.create(
                        FileIO.flinkFileSystems(),
                        new Path(original.toUri()),
                        ID_V,
                        List.of(),
                        Map.of());
        append(written, 1, List.of(row(1L, "a")));
        append(written, 2, List.of(row(2L, "b")));
        tableDir = tempDir.resolve("copy");
        try (Stream<java.nio.file.Path> files = Files.walk(original)) {
            for (java.nio.file.Path from : files.toList()) {
                Files.copy(from, tableDir.resolve(original.relativize(from).toString()));
            }
        }
        table = Table.load(FileIO.flinkFileSystems(), new Path(tableDir.toUri()), "db.t");
    }

    private String deltaManifestList() {
        return TableInternals.context(table).snapshotManager().latest().deltaManifestList();
    }

    private String deltaManifest() {
        return TableInternals.context(table)
                .manifestList()
                .read(deltaManifestList())
                .get(0)
                .fileName();
    }

    private java.nio.file.Path local(Path path) {
        return java.nio.file.Path.of(path.toUri());
    }

    private void damage(Path file, java.util.function.UnaryOperator<byte[]> how)
            throws IOException {
        Files.write(local(file), how.apply(Files.readAllBytes(local(file))));
    }

    private static byte[] truncate(byte[] bytes, int keep) {
        return java.util.Arrays.copyOf(bytes, keep);
    }

    private static byte[] flipBit(byte[] bytes, int index) {
        byte[] copy = bytes.clone();
        copy[index] ^= 0x10;
        return copy;
    }

    /** Sets the version byte and recomputes the checksum, as a newer writer would. */
    private static byte[] withVersion(byte[] bytes, int version) {
        byte[] copy = bytes.clone();
        copy[4] = (byte) version;
        CRC32 crc = new CRC32();
        crc.update(copy, 0, copy.length - 4);
        ByteBuffer.wrap(copy, copy.length - 4, 4).putInt((int) crc.getValue());
        return copy;
    }

    @Test
    void intactCopyReadsBack() {
        assertThat(readAll(table)).containsExactly("1,a", "2,b");
    }

    @Test
    void truncatedManifest() throws IOException {
        Path manifest = TableInternals.context(table).manifestFile().path(deltaManifest());
        damage(manifest, b -> truncate(b, b.length - 10));

        assertThatThrownBy(() -> table.newScan().plan())
                .isInstanceOf(UncheckedIOException.class)
                .hasMessage(
                        "Cannot read manifest file %s: Corrupt metadata file %s: checksum mismatch"
                                + " (truncated or damaged)",
                        manifest, manifest);
    }

    @Test
    void manifestTruncatedToAFewBytes() throws IOException {
        Path manifest = TableInternals.context(table).manifestFile().path(deltaManifest());
        damage(manifest, b -> truncate(b, 3));

        assertThatThrownBy(() -> table.newScan().plan())
                .isInstanceOf(UncheckedIOException.class)
                .hasMessage(
                        "Cannot read manifest file %s: Corrupt metadata file %s: it does not start"
                                + " with TRNM (truncated, or not a Tarn file)",
                        manifest, manifest);
    }

    @Test
    void bitFlipsAnywhereInAManifestAreDetected() throws IOException {
        Path manifest = TableInternals.context(table).manifestFile().path(deltaManifest());
        byte[] valid = Files.readAllBytes(local(manifest));
        // Past the magic: the version byte, the body and the checksum itself.
        for (int index : new int[] {4, 5, valid.length / 2, valid.length - 5, valid.length - 1}) {
            Files.write(local(manifest), flipBit(valid, index));
            Table fresh = Table.load(FileIO.flinkFileSystems(), reCopy(index), "db.t");
            Path copied = TableInternals.context(fresh).manifestFile().path(deltaManifest());

            assertThatThrownBy(() -> fresh.newScan().plan())
                    .as("bit flip at byte %d of %d", index, valid.length)
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining(
                            "Corrupt metadata file " + copied + ": checksum mismatch");
        }
    }

    /** A copy of the table at a new path, so its manifests are not in the process-wide cache. */
    private Path reCopy(int n) throws IOException {
        java.nio.file.Path target = tempDir.resolve("copy-" + n);
        try (Stream<java.nio.file.Path> files = Files.walk(tableDir)) {
            for (java.nio.file.Path from : files.toList()) {
                Files.copy(from, target.resolve(tableDir.relativize(from).toString()));
            }
        }
        return new Path(target.toUri());
    }

    @Test
    void manifestOfANewerFormatVersion() throws IOException {
        Path manifest = TableInternals.context(table).manifestFile().path(deltaManifest());
        damage(manifest, b -> withVersion(b, 3));

        assertThatThrownBy(() -> table.newScan().plan())
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(
                        "Cannot read metadata file "
                                + manifest
                                + ": format version 3 is not supported (supported: 1 to 2)");
    }

    @Test
    void missingManifest() throws IOException {
        Path manifest = TableInternals.context(table).manifestFile().path(deltaManifest());
        Files.delete(local(manifest));

        assertThatThrownBy(() -> table.newScan().plan())
                .isInstanceOf(UncheckedIOException.class)
                .hasMessage("Manifest file %s is missing", manifest);
    }

    @Test
    void truncatedManifestList() throws IOException {
        Path list = TableInternals.context(table).manifestList().path(deltaManifestList());
        damage(list, b -> truncate(b, b.length - 1));

        assertThatThrownBy(() -> table.newScan().plan())
                .isInstanceOf(UncheckedIOException.class)
                .hasMessage(
                        "Cannot read manifest list %s: Corrupt metadata file %s: checksum mismatch"
                                + " (truncated or damaged)",
                        list, list);
    }

    @Test
    void bitFlippedManifestList() throws IOException {
        Path list = TableInternals.context(table).manifestList().path(deltaManifestList());
        damage(list, b -> flipBit(b, b.length / 2));

        assertThatThrownBy(() -> table.newScan().plan())
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageStartingWith("Cannot read manifest list " + list)
                .hasMessageEndingWith("checksum mismatch (truncated or damaged)");
    }

    @Test
    void manifestListWithTheWrongMagic() throws IOException {
        // A manifest where a manifest list belongs: intact, but not a manifest list.
        Path list = TableInternals.context(table).manifestList().path(deltaManifestList());
        Files.copy(
                local(TableInternals.context(table).manifestFile().path(deltaManifest())),
                local(list),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);

        assertThatThrownBy(() -> table.newScan().plan())
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(
                        "Corrupt metadata file " + list + ": it does not start with TRNL");
    }

    @Test
    void missingManifestList() throws IOException {
        Path list = TableInternals.context(table).manifestList().path(deltaManifestList());
        Files.delete(local(list));

        assertThatThrownBy(() -> table.newScan().plan())
                .isInstanceOf(UncheckedIOException.class)
                .hasMessage("Manifest list %s is missing", list);
    }

    @Test
    void missingDataFileNamesTheFileTheTableAndTheSnapshot() throws IOException {
        Snapshot latest = TableInternals.context(table).snapshotManager().latest();
        List<Split> splits = table.newScan().plan().splits();
        Split split = splits.get(0);
        Path dataFile =
                new Path(
                        table.bucketPath(split.partition(), split.bucket()),
                        split.files().get(0).fileName());
        Files.delete(local(dataFile));

        TableRead.SplitReader reader = table.newRead().open(split);
        assertThatThrownBy(reader::next)
                .isInstanceOf(FileNotFoundException.class)
                .hasMessage(
                        "Data file %s of table db.t (snapshot %d) is missing. Restore the file, or"
                                + " roll back to a snapshot that does not use it.",
                        dataFile, latest.id());
    }

    @Test
    void corruptSchemaFile() throws IOException {
        Path schema = TableInternals.context(table).schemaManager().path(0);
        String valid = Files.readString(local(schema));
        Files.writeString(local(schema), valid.substring(0, valid.length() / 2));

        assertThatThrownBy(() -> Table.load(FileIO.flinkFileSystems(), table.location(), "db.t"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Corrupt schema file " + schema + ": ");
    }

    @Test
    void schemaFileWithAnUnknownType() throws IOException {
        Path schema = TableInternals.context(table).schemaManager().path(0);
        String valid = Files.readString(local(schema));
        assertThat(valid).contains("\"BIGINT\"");
        Files.writeString(local(schema), valid.replace("\"BIGINT\"", "\"HUGEINT\""));

        assertThatThrownBy(() -> Table.load(FileIO.flinkFileSystems(), table.location(), "db.t"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Corrupt schema file %s: unknown type 'HUGEINT' of column id", schema);
    }

    @Test
    void schemaFileHoldingAnotherId() throws IOException {
        Path schema = TableInternals.context(table).schemaManager().path(0);
        String valid = Files.readString(local(schema));
        Files.writeString(
                local(TableInternals.context(table).schemaManager().path(1)),
                valid.replaceFirst("\"id\" : 0,", "\"id\" : 7,"),
                StandardCharsets.UTF_8);

        assertThatThrownBy(() -> Table.load(FileIO.flinkFileSystems(), table.location(), "db.t"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Corrupt schema file %s: it holds schema id 7",
                        TableInternals.context(table).schemaManager().path(1));
    }

    @Test
    void loadOfAnEmptyDirectoryNamesTheTable() throws IOException {
        java.nio.file.Path empty = Files.createDirectory(tempDir.resolve("empty"));
        Path location = new Path(empty.toUri());

        assertThatThrownBy(() -> Table.load(FileIO.flinkFileSystems(), location, "db.missing"))
                .isInstanceOf(TableNotFoundException.class)
                .hasMessage("Table db.missing does not exist: no schema file under %s", location);
        Path nowhere = new Path(tempDir.resolve("nowhere").toUri());
        assertThatThrownBy(() -> Table.load(FileIO.flinkFileSystems(), nowhere, "db.missing"))
                .isInstanceOf(TableNotFoundException.class)
                .hasMessage("Table db.missing does not exist: no schema file under %s", nowhere);
    }

    @Test
    void createWhereATableExists() {
        assertThatThrownBy(
                        () ->
                                TestTables.create(
                                        FileIO.flinkFileSystems(),
                                        table.location(),
                                        ID_V,
                                        List.of(),
                                        Map.of()))
                .isInstanceOf(TableAlreadyExistsException.class)
                .hasMessage("Table db.t already exists at %s", table.location());
    }
}
