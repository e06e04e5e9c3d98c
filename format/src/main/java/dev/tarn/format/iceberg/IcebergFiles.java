package dev.tarn.format.iceberg;

import dev.tarn.format.manifest.DataFile.ColumnStats;
import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.schema.TableSchema.DataField;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Tarn's files as Iceberg content files: a data file with its partition and column statistics (from
 * Tarn's manifest), a deletion vector as an Iceberg v3 deletion vector (Tarn's index files are
 * Puffin files of {@code deletion-vector-v1} blobs already, SPEC.md section 17).
 */
final class IcebergFiles {

    private final TableContext table;

    /** Sizes of index files, which never change once written. */
    private final Map<String, Long> indexSizes = new ConcurrentHashMap<>();

    IcebergFiles(TableContext table) {
        this.table = table;
    }

    /** Where a data file of the table lives, as Iceberg metadata names it. */
    String location(ManifestEntry.FileId id) {
        return new Path(table.bucketPath(id.partition(), id.bucket()), id.fileName()).toString();
    }

    /** {@code entry}'s file as an Iceberg data file of {@code spec}, under {@code schema}. */
    DataFile dataFile(ManifestEntry entry, PartitionSpec spec, Schema schema) {
        dev.tarn.format.manifest.DataFile file = entry.file();
        return DataFiles.builder(spec)
                .withPath(location(entry.fileId()))
                .withFormat(FileFormat.PARQUET)
                .withFileSizeInBytes(file.fileSize())
                .withRecordCount(file.rowCount())
                .withPartitionValues(entry.partition().values())
                .withMetrics(metrics(file, schema))
                .build();
    }

    /** The deletion vector {@code vector} of {@code dataFile} as an Iceberg v3 deletion vector. */
    DeleteFile vector(DataFile dataFile, DeletionFile vector, PartitionSpec spec) {
        Path index = new Path(table.paths().indexDir(), vector.indexFile());
        return FileMetadata.deleteFileBuilder(spec)
                .ofPositionDeletes()
                .withFormat(FileFormat.PUFFIN)
                .withPath(index.toString())
                .withFileSizeInBytes(indexSize(index))
                .withPartition(dataFile.partition())
                .withRecordCount(vector.cardinality())
                .withReferencedDataFile(dataFile.location())
                .withContentOffset(vector.offset())
                .withContentSizeInBytes(vector.length())
                .build();
    }

    private long indexSize(Path index) {
        return indexSizes.computeIfAbsent(
                index.getName(),
                name -> {
                    try {
                        return table.io().status(index).getLen();
                    } catch (IOException e) {
                        throw new UncheckedIOException(
                                "Cannot read the size of index file "
                                        + index
                                        + " of table "
                                        + table.name()
                                        + ": "
                                        + e.getMessage(),
                                e);
                    }
                });
    }

    /**
     * Iceberg's column metrics from Tarn's statistics, which follow the file's own schema: matched
     * to {@code schema}'s columns by field id, bounds in the Iceberg type of each. A column the
     * file lacks gets no metrics (Iceberg readers take it as missing); a bound that does not
     * convert exactly is left out.
     */
    private Metrics metrics(dev.tarn.format.manifest.DataFile file, Schema schema) {
        TableSchema written = table.schema(file.schemaId());
        ColumnStats stats = file.valueStats();
        Map<Integer, Long> values = new HashMap<>();
        Map<Integer, Long> nulls = new HashMap<>();
        Map<Integer, ByteBuffer> lower = new HashMap<>();
        Map<Integer, ByteBuffer> upper = new HashMap<>();
        for (int i = 0; i < written.fields().size() && i < stats.columnCount(); i++) {
            DataField field = written.fields().get(i);
            Types.NestedField current = schema.findField(field.id());
            if (current == null) {
                continue;
            }
            values.put(field.id(), file.rowCount());
            if (stats.nullCount(i) >= 0) {
                nulls.put(field.id(), stats.nullCount(i));
            }
            ByteBuffer min = bound(stats.min(i), current.type());
            ByteBuffer max = bound(stats.max(i), current.type());
            if (min != null && max != null) {
                lower.put(field.id(), min);
                upper.put(field.id(), max);
            }
        }
        return new Metrics(file.rowCount(), null, values, nulls, null, lower, upper);
    }

    /** A statistics value (Flink internal data) as an Iceberg bound of {@code type}, or null. */
    @Nullable
    static ByteBuffer bound(@Nullable Object value, Type type) {
        Object converted = value == null ? null : convert(value, type);
        return converted == null ? null : Conversions.toByteBuffer(type, converted);
    }

    @Nullable
    private static Object convert(Object value, Type type) {
        return switch (type.typeId()) {
            case BOOLEAN -> value instanceof Boolean ? value : null;
            case INTEGER ->
                    value instanceof Number n && !(value instanceof Long) ? n.intValue() : null;
            case LONG -> value instanceof Number n ? n.longValue() : null;
            case FLOAT -> value instanceof Float ? value : null;
            case DOUBLE -> value instanceof Number n ? n.doubleValue() : null;
            case STRING -> value instanceof StringData s ? s.toString() : null;
            case BINARY -> value instanceof byte[] b ? ByteBuffer.wrap(b) : null;
            case DATE -> value instanceof Integer ? value : null;
            case TIME -> value instanceof Integer millis ? millis * 1000L : null;
            case TIMESTAMP ->
                    value instanceof TimestampData t
                            ? t.getMillisecond() * 1000 + t.getNanoOfMillisecond() / 1000
                            : null;
            case DECIMAL -> {
                if (!(value instanceof DecimalData d)) {
                    yield null;
                }
                BigDecimal decimal = d.toBigDecimal();
                yield decimal.scale() == ((Types.DecimalType) type).scale() ? decimal : null;
            }
            default -> null;
        };
    }
}
