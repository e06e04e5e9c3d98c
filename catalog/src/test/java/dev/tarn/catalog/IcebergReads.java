package dev.tarn.catalog;

import dev.tarn.format.iceberg.IcebergFileIO;
import dev.tarn.format.io.FileIO;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.core.fs.Path;
import org.apache.hadoop.conf.Configuration;
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
import org.apache.iceberg.types.Types;

/**
 * Reads a Tarn table as Iceberg readers do, with Iceberg's own Java API: the metadata that {@code
 * metadata/version-hint.text} names, loaded read-only, or the location as a path table (as Spark
 * loads one), and the rows of Iceberg's generic reader, printed as Flink prints rows ({@code +I[1,
 * a]}) so they compare with a Tarn query's.
 */
final class IcebergReads {

    /** Path tables read through Hadoop's file systems; loading its configuration takes a while. */
    private static final HadoopTables PATH_TABLES = new HadoopTables(new Configuration());

    private final FileIO io;
    private final Path location;

    IcebergReads(FileIO io, Path location) {
        this.io = io;
        this.location = location;
    }

    /** The version {@code version-hint.text} names. */
    long hint() throws IOException {
        return Long.parseLong(
                new String(
                                io.readAllBytes(new Path(location, "metadata/version-hint.text")),
                                StandardCharsets.UTF_8)
                        .trim());
    }

    /** The table at the hint's version. */
    Table table() throws IOException {
        return table(hint());
    }

    /** The table at {@code metadata/v<version>.metadata.json}. */
    Table table(long version) {
        IcebergFileIO icebergIo = new IcebergFileIO(io);
        TableMetadata metadata =
                TableMetadataParser.read(
                        icebergIo,
                        new Path(location, "metadata/v" + version + ".metadata.json").toString());
        return new BaseTable(new StaticTableOperations(metadata, icebergIo), location.getName());
    }

    /**
     * The location as Iceberg's path tables load it ({@link HadoopTables}, which Spark's {@code
     * load(location)} uses): the hinted version, then every later {@code v<N>.metadata.json} that
     * exists. Local files only: it reads through Hadoop's file systems.
     */
    Table pathTable() {
        return PATH_TABLES.load(location.toString());
    }

    /** The rows of the current snapshot. */
    List<String> rows() throws IOException {
        return rows(table(), null);
    }

    /** The rows of {@code snapshotId} of {@code table}, or of its current snapshot if null. */
    static List<String> rows(Table table, Long snapshotId) throws IOException {
        IcebergGenerics.ScanBuilder scan = IcebergGenerics.read(table);
        if (snapshotId != null) {
            scan = scan.useSnapshot(snapshotId);
        }
        List<String> rows = new ArrayList<>();
        try (CloseableIterable<Record> records = scan.build()) {
            for (Record r : records) {
                List<String> values = new ArrayList<>();
                List<Types.NestedField> fields = r.struct().fields();
                for (int i = 0; i < r.size(); i++) {
                    // The reader adds the row position (_pos) where a deletion vector applies.
                    if (!MetadataColumns.isMetadataColumn(fields.get(i).fieldId())) {
                        values.add(String.valueOf(r.get(i)));
                    }
                }
                rows.add(values.stream().collect(Collectors.joining(", ", "+I[", "]")));
            }
        }
        return rows;
    }
}
