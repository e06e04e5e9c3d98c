package dev.tarn.format.iceberg;

import dev.tarn.format.schema.TableSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import javax.annotation.Nullable;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.TarnManifestListWriter;
import org.apache.iceberg.TarnManifestWriter;

/**
 * The writers of a table instance's Iceberg manifests and manifest lists, and the Iceberg shape of
 * each of its schema versions, made once and shared by all its committers (a stream's, and each
 * compaction's, which commits once): making a writer converts schemas and writes an Avro header,
 * and making a shape builds the schema's name mapping, which cost a commit more than its entries
 * do. Safe for concurrent use.
 */
final class IcebergWriters {

    /** More writers than any table needs (one per format version, spec and schema version). */
    private static final int MAX_WRITERS = 64;

    private final Map<String, TarnManifestWriter> manifests = new ConcurrentHashMap<>();
    private final Map<Integer, TarnManifestListWriter> lists = new ConcurrentHashMap<>();
    private final Map<Long, IcebergSnapshots.Shape> shapes = new ConcurrentHashMap<>();

    /** The writer {@link #manifests} returned last, by its spec's identity. */
    @Nullable private volatile Last last;

    private record Last(int formatVersion, PartitionSpec spec, TarnManifestWriter writer) {}

    /** The writer of data manifests of {@code formatVersion} and {@code spec} (with its schema). */
    TarnManifestWriter manifests(int formatVersion, PartitionSpec spec) {
        Last l = last;
        if (l != null && l.spec() == spec && l.formatVersion() == formatVersion) {
            return l.writer();
        }
        String key = TarnManifestWriter.key(formatVersion, spec);
        if (manifests.size() >= MAX_WRITERS) {
            manifests.clear();
        }
        TarnManifestWriter writer =
                manifests.computeIfAbsent(
                        key,
                        k -> {
                            try {
                                return new TarnManifestWriter(formatVersion, spec);
                            } catch (IOException e) {
                                throw new UncheckedIOException(
                                        "Cannot make the writer of Iceberg manifests of spec "
                                                + spec.specId()
                                                + ": "
                                                + e.getMessage(),
                                        e);
                            }
                        });
        last = new Last(formatVersion, spec, writer);
        return writer;
    }

    /** The writer of manifest lists of {@code formatVersion}. */
    TarnManifestListWriter lists(int formatVersion) {
        return lists.computeIfAbsent(formatVersion, TarnManifestListWriter::new);
    }

    /**
     * The shape of Tarn schema version {@code tarn}, made by {@code make} the first time, and again
     * if the version kept under its id is another (a table dropped and created again under this
     * instance's name).
     */
    IcebergSnapshots.Shape shape(
            TableSchema tarn, Function<TableSchema, IcebergSnapshots.Shape> make) {
        IcebergSnapshots.Shape kept = shapes.get(tarn.id());
        if (kept != null && (kept.tarn() == tarn || kept.tarn().equals(tarn))) {
            return kept;
        }
        if (shapes.size() >= MAX_WRITERS) {
            shapes.clear();
        }
        IcebergSnapshots.Shape made = make.apply(tarn);
        shapes.put(tarn.id(), made);
        return made;
    }
}
