package dev.tarn.format.iceberg;

import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.table.TableContext;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;

/**
 * The Iceberg side of one table's directory (SPEC.md, "Iceberg metadata"): {@code
 * metadata/v<N>.metadata.json} for Tarn snapshot {@code N}, the Avro manifests and manifest lists
 * beside them, and {@code metadata/version-hint.text}, the version Iceberg readers open.
 */
final class IcebergTable {

    static final String METADATA_DIR = "metadata";
    static final String HINT = "version-hint.text";

    /** Names the Tarn snapshot an Iceberg snapshot was written for, by its delta manifest list. */
    static final String DELTA_LIST_PROPERTY = "tarn.delta-manifest-list";

    private final TableContext table;
    private final IcebergFileIO io;

    IcebergTable(TableContext table) {
        this.table = table;
        this.io = new IcebergFileIO(table.io());
    }

    TableContext context() {
        return table;
    }

    IcebergFileIO io() {
        return io;
    }

    Path directory() {
        return new Path(table.location(), METADATA_DIR);
    }

    /** Where the table metadata of Tarn snapshot {@code version} goes. */
    Path versionPath(long version) {
        return new Path(directory(), "v" + version + ".metadata.json");
    }

    Path hintPath() {
        return new Path(directory(), HINT);
    }

    /** A new manifest's location. */
    String newManifest() {
        return new Path(directory(), UUID.randomUUID() + "-m0.avro").toString();
    }

    /** A new manifest list's location, for Iceberg snapshot {@code id}. */
    String newManifestList(long id) {
        return new Path(directory(), "snap-" + id + "-" + UUID.randomUUID() + ".avro").toString();
    }

    /** The metadata of {@code version}, or null if there is none. */
    @Nullable
    TableMetadata read(long version) {
        Path path = versionPath(version);
        try {
            if (!table.io().exists(path)) {
                return null;
            }
        } catch (IOException e) {
            throw failure("check", path, e);
        }
        return TableMetadataParser.read(io, path.toString());
    }

    /**
     * The metadata of {@code version} as a base to rewrite in place, or null if there is none:
     * without its own location, so the rewrite does not list itself as its previous version.
     */
    @Nullable
    TableMetadata readDetached(long version) throws IOException {
        Path path = versionPath(version);
        if (!table.io().exists(path)) {
            return null;
        }
        return TableMetadataParser.fromJson(
                new String(table.io().readAllBytes(path), StandardCharsets.UTF_8));
    }

    /**
     * The metadata of {@code version} if it was written for {@code snapshot}, else null: a version
     * is written only once its snapshot is published, but one of an earlier snapshot of that id (a
     * rollback removed it, and a crash cut short the deletion of its version) may be there.
     */
    @Nullable
    TableMetadata readFor(Snapshot snapshot) {
        TableMetadata metadata = read(snapshot.id());
        return metadata != null && isFor(metadata, snapshot) ? metadata : null;
    }

    /** Whether {@code metadata}'s current snapshot is the Iceberg snapshot of {@code snapshot}. */
    static boolean isFor(TableMetadata metadata, Snapshot snapshot) {
        org.apache.iceberg.Snapshot current = metadata.currentSnapshot();
        return current != null
                && current.snapshotId() == snapshot.id()
                && snapshot.deltaManifestList().equals(current.summary().get(DELTA_LIST_PROPERTY));
    }

    /**
     * Writes {@code metadata} as version {@code version}, replacing what is there.
     *
     * @return the version as written, at its location (so the next version lists it as its previous
     *     one)
     */
    IcebergVersion write(long version, IcebergVersion metadata) throws IOException {
        Path path = versionPath(version);
        table.io().overwrite(path, out -> IcebergMetadataJson.write(metadata, out));
        return metadata.at(path.toString());
    }

    /** Writes the whole {@code metadata} as version {@code version}, replacing what is there. */
    void write(long version, TableMetadata metadata) throws IOException {
        table.io()
                .overwrite(
                        versionPath(version),
                        TableMetadataParser.toJson(metadata).getBytes(StandardCharsets.UTF_8));
    }

    /** Points Iceberg readers at {@code version}. */
    void writeHint(long version) throws IOException {
        table.io()
                .replaceHint(hintPath(), String.valueOf(version).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The version the hint names; without a readable hint (it is deleted just before it is
     * replaced), the highest version there is, as Iceberg's path tables find it; empty if there is
     * none.
     */
    OptionalLong hint() {
        try {
            if (table.io().exists(hintPath())) {
                String text =
                        new String(table.io().readAllBytes(hintPath()), StandardCharsets.UTF_8)
                                .trim();
                return OptionalLong.of(Long.parseLong(text));
            }
        } catch (NumberFormatException | FileNotFoundException e) {
            // Unreadable or gone since: the versions there are tell.
        } catch (IOException e) {
            throw failure("read", hintPath(), e);
        }
        long highest = -1;
        for (FileStatus file : list()) {
            highest = Math.max(highest, version(file.getPath().getName()));
        }
        return highest < 0 ? OptionalLong.empty() : OptionalLong.of(highest);
    }

    /** The files in {@code metadata/}. */
    FileStatus[] list() {
        try {
            return table.io().list(directory());
        } catch (IOException e) {
            throw failure("list", directory(), e);
        }
    }

    /** The ids of {@code metadata}'s snapshots before {@code firstKept}, oldest first. */
    static List<Long> expiredSnapshots(TableMetadata metadata, long firstKept) {
        List<Long> ids = new ArrayList<>();
        for (org.apache.iceberg.Snapshot s : metadata.snapshots()) {
            if (s.snapshotId() < firstKept) {
                ids.add(s.snapshotId());
            }
        }
        ids.sort(null);
        return ids;
    }

    /** The version of a {@code v<N>.metadata.json} file name, or -1 for another name. */
    static long version(String fileName) {
        if (!fileName.startsWith("v") || !fileName.endsWith(".metadata.json")) {
            return -1;
        }
        try {
            return Long.parseLong(fileName.substring(1, fileName.length() - 14));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    UncheckedIOException failure(String action, Path path, IOException e) {
        return new UncheckedIOException(
                String.format(
                        "Cannot %s Iceberg metadata %s of table %s: %s",
                        action, path, table.name(), e.getMessage()),
                e);
    }
}
