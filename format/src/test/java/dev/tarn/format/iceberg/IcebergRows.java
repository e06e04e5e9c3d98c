package dev.tarn.format.iceberg;

import dev.tarn.format.io.FileIO;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.fs.Path;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.StaticTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.CloseableIterable;

/**
 * A table's rows as Iceberg readers see them, read with Iceberg's own Java API (its generic reader)
 * and printed as {@link dev.tarn.format.TestTables} prints Tarn's ({@code "1,a"}, sorted), so the
 * two compare. Two ways in, as there are two kinds of Iceberg readers: the metadata file that
 * {@code version-hint.text} names (what a reader that trusts the hint opens), and the location as a
 * path table ({@link HadoopTables}, what Spark's {@code load(location)} opens), which starts at the
 * hint and then takes every next {@code v<N>.metadata.json} that exists.
 */
final class IcebergRows {

    /** Path tables read through Hadoop's file systems; loading its configuration takes a while. */
    private static final HadoopTables PATH_TABLES =
            new HadoopTables(new org.apache.hadoop.conf.Configuration());

    private final FileIO io;
    private final Path location;

    IcebergRows(FileIO io, Path location) {
        this.io = io;
        this.location = location;
    }

    /** The version {@code version-hint.text} names. */
    long hint() {
        try {
            return Long.parseLong(
                    new String(io.readAllBytes(file("version-hint.text")), StandardCharsets.UTF_8)
                            .trim());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether {@code metadata/v<version>.metadata.json} exists. */
    boolean exists(long version) {
        try {
            return io.exists(file("v" + version + ".metadata.json"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The rows of the current snapshot of {@code metadata/v<version>.metadata.json}. */
    List<String> at(long version) {
        IcebergFileIO icebergIo = new IcebergFileIO(io);
        return rows(
                new BaseTable(
                        new StaticTableOperations(metadata(version), icebergIo),
                        location.getName()));
    }

    /** The Iceberg format version of {@code metadata/v<version>.metadata.json}. */
    int formatVersion(long version) {
        return metadata(version).formatVersion();
    }

    private TableMetadata metadata(long version) {
        return TableMetadataParser.read(
                new IcebergFileIO(io), file("v" + version + ".metadata.json").toString());
    }

    /** The rows of the version the hint names. */
    List<String> atHint() {
        return at(hint());
    }

    /** The location loaded as Iceberg's path tables load it: its current snapshot id and rows. */
    PathTable pathTable() {
        Table table = PATH_TABLES.load(location.toString());
        return new PathTable(table.currentSnapshot().snapshotId(), rows(table));
    }

    record PathTable(long snapshotId, List<String> rows) {}

    private Path file(String name) {
        return new Path(new Path(location, "metadata"), name);
    }

    private static List<String> rows(Table table) {
        List<String> rows = new ArrayList<>();
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
            for (Record r : records) {
                List<String> values = new ArrayList<>();
                for (int i = 0; i < r.size(); i++) {
                    // The reader adds the row position (_pos) where a deletion vector applies.
                    if (!MetadataColumns.isMetadataColumn(r.struct().fields().get(i).fieldId())) {
                        values.add(String.valueOf(r.get(i)));
                    }
                }
                rows.add(String.join(",", values));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        rows.sort(null);
        return rows;
    }
}
