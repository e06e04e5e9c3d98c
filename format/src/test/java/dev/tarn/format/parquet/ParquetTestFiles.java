package dev.tarn.format.parquet;

import dev.tarn.format.io.FileIO;
import dev.tarn.format.parquet.ParquetDataWriter.DataFileStats;
import dev.tarn.format.predicate.Predicate;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/** Writes and reads whole Parquet files in tests, comparing rows as {@link CanonicalValues}. */
final class ParquetTestFiles {

    static final FileIO IO = FileIO.flinkFileSystems();

    private ParquetTestFiles() {}

    static Path path(java.nio.file.Path dir, String name) {
        return new Path(dir.resolve(name).toUri());
    }

    static DataFileStats write(
            Path path,
            RowType type,
            ParquetDataWriter.Options options,
            Iterable<? extends RowData> rows)
            throws IOException {
        try (ParquetDataWriter writer = ParquetDataWriter.create(IO, path, type, options)) {
            for (RowData row : rows) {
                writer.write(row);
            }
            return writer.finish();
        }
    }

    static long length(Path path) throws IOException {
        return Files.size(java.nio.file.Path.of(path.toUri()));
    }

    /** Every row of {@code path} projected to {@code readType}, canonicalized. */
    static List<List<Object>> read(
            Path path, RowType fileType, RowType readType, Predicate filter, boolean vectorized)
            throws IOException {
        List<List<Object>> rows = new ArrayList<>();
        try (ParquetDataReader reader =
                ParquetDataReader.open(
                        IO, path, length(path), fileType, readType, filter, vectorized)) {
            for (RowData row = reader.next(); row != null; row = reader.next()) {
                rows.add(CanonicalValues.row(row, readType));
            }
        }
        return rows;
    }

    static List<List<Object>> canonical(List<? extends RowData> rows, RowType type) {
        List<List<Object>> result = new ArrayList<>();
        for (RowData row : rows) {
            result.add(CanonicalValues.row(row, type));
        }
        return result;
    }
}
