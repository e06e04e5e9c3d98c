package dev.tarn.benchmarks;

import dev.tarn.format.Table;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

/**
 * The floor of what Iceberg metadata can cost a commit on this file system, in the Iceberg
 * commit-cost benchmark ({@code floor}): a Tarn table without the option whose commits, when "on",
 * are each followed by the file writes alone of an Iceberg step, with nothing encoded. Per
 * snapshot, the files Iceberg's spec needs and Iceberg's own file-system tables write: a manifest
 * and a manifest list, each written straight under its name; the version file, written aside and
 * renamed onto {@code v<N>.metadata.json}; and {@code version-hint.text}, written aside and renamed
 * onto its name. Each of the size Tarn's own Iceberg file had for the same snapshot in {@code
 * reference}, the table with the option that the benchmark committed the same way just before.
 */
final class IcebergFileFloor implements IcebergCommitTarget.Factory {

    private final Path reference;

    /**
     * @param reference the directory of a Tarn table with the option, committed as this one will be
     */
    IcebergFileFloor(Path reference) {
        this.reference = reference;
    }

    @Override
    public String name() {
        return "floor";
    }

    @Override
    public IcebergCommitTarget open(Path directory, boolean iceberg) throws Exception {
        Table table = TarnIcebergCommits.create(directory, false);
        return TarnIcebergCommits.target(
                table, iceberg ? new Writes(directory.resolve("metadata"), reference) : null);
    }

    /** The file writes of an Iceberg step, sized as {@code reference}'s. */
    static final class Writes {
        private static final String VERSION_SUFFIX = ".metadata.json";

        private final Path directory;
        private final Map<Long, Long> versionSizes = new HashMap<>();
        private final Map<Long, Long> listSizes = new HashMap<>();
        private final long manifestSize;
        private final byte[] bytes;

        /**
         * @param directory where the files go
         * @param reference a table directory whose {@code metadata} holds Tarn's Iceberg files
         * @throws IllegalStateException naming {@code reference} if it holds none
         */
        Writes(Path directory, Path reference) throws IOException {
            this.directory = Files.createDirectories(directory);
            List<Long> manifests = new ArrayList<>();
            try (Stream<Path> files = Files.list(reference.resolve("metadata"))) {
                for (Path file : (Iterable<Path>) files::iterator) {
                    String name = file.getFileName().toString();
                    long size = Files.size(file);
                    if (name.startsWith("v") && name.endsWith(VERSION_SUFFIX)) {
                        long version =
                                Long.parseLong(
                                        name.substring(1, name.length() - VERSION_SUFFIX.length()));
                        versionSizes.put(version, size);
                    } else if (name.startsWith("snap-")) {
                        listSizes.put(Long.parseLong(name.split("-")[1]), size);
                    } else if (name.endsWith("-m0.avro")) {
                        manifests.add(size);
                    }
                }
            }
            if (versionSizes.isEmpty() || listSizes.isEmpty() || manifests.isEmpty()) {
                throw new IllegalStateException(
                        "The floor of the Iceberg step needs the Iceberg files of a Tarn table with"
                                + " the option in "
                                + reference
                                + ", found none");
            }
            Collections.sort(manifests);
            this.manifestSize = manifests.get(manifests.size() / 2);
            long largest =
                    Math.max(
                            manifestSize,
                            Math.max(
                                    Collections.max(versionSizes.values()),
                                    Collections.max(listSizes.values())));
            this.bytes = new byte[Math.toIntExact(largest)];
            new Random(1).nextBytes(bytes);
        }

        /**
         * The sizes for snapshot {@code id}: the manifests' median, and the list's and version
         * file's of that snapshot (or the nearest earlier one that has them).
         */
        long[] sizes(long id) {
            return new long[] {manifestSize, nearest(listSizes, id), nearest(versionSizes, id)};
        }

        private static long nearest(Map<Long, Long> sizes, long id) {
            for (long i = id; i > 0; i--) {
                Long size = sizes.get(i);
                if (size != null) {
                    return size;
                }
            }
            return sizes.values().iterator().next();
        }

        /** Writes the files of snapshot {@code id}, of {@code sizes} as {@link #sizes} gives. */
        void write(long id, long[] sizes) throws IOException {
            write(directory.resolve("floor-" + id + "-m0.avro"), sizes[0]);
            write(directory.resolve("snap-" + id + "-floor.avro"), sizes[1]);
            Path version = directory.resolve(".v" + id + VERSION_SUFFIX + ".tmp");
            write(version, sizes[2]);
            Files.move(
                    version,
                    directory.resolve("v" + id + VERSION_SUFFIX),
                    StandardCopyOption.ATOMIC_MOVE);
            Path hint = directory.resolve(".version-hint.text.tmp");
            Files.write(hint, Long.toString(id).getBytes(StandardCharsets.UTF_8));
            Files.move(
                    hint, directory.resolve("version-hint.text"), StandardCopyOption.ATOMIC_MOVE);
        }

        private void write(Path file, long size) throws IOException {
            try (OutputStream out = Files.newOutputStream(file)) {
                out.write(bytes, 0, (int) size);
            }
        }
    }
}
