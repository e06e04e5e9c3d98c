package dev.tarn.format.parquet;

import dev.tarn.format.parquet.schema.ParquetSchemas;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * The projection of a file's Parquet schema that a reader asks for: the file's own field types, in
 * read-type order, after checking that each read column exists in the file's row type with the same
 * Parquet type and that the file really stores it so.
 */
final class RequestedSchema {

    private RequestedSchema() {}

    static MessageType of(Path path, MessageType fileSchema, RowType fileType, RowType readType)
            throws IOException {
        List<Type> fields = new ArrayList<>(readType.getFieldCount());
        for (RowType.RowField field : readType.getFields()) {
            String name = field.getName();
            int fileIndex = fileType.getFieldIndex(name);
            if (fileIndex < 0) {
                throw new IllegalArgumentException(
                        "Cannot read column "
                                + name
                                + " from "
                                + path
                                + ": the file's row type "
                                + fileType.asSummaryString()
                                + " has no such column");
            }
            Type expected =
                    ParquetSchemas.toParquetType(name, field.getType(), Type.Repetition.OPTIONAL);
            Type declared =
                    ParquetSchemas.toParquetType(
                            name, fileType.getTypeAt(fileIndex), Type.Repetition.OPTIONAL);
            if (!expected.equals(declared)) {
                throw new IllegalArgumentException(
                        "Cannot read column "
                                + name
                                + " from "
                                + path
                                + " as "
                                + field.getType().asSummaryString()
                                + ": the file's row type holds it as "
                                + fileType.getTypeAt(fileIndex).asSummaryString());
            }
            // A column's field id (written since Iceberg metadata came) does not change its type.
            if (!fileSchema.containsField(name)
                    || !fileSchema
                            .getType(name)
                            .equals(withIdOf(fileSchema.getType(name), expected))) {
                throw new IOException(
                        "Cannot read column "
                                + name
                                + " from "
                                + path
                                + ": the Parquet file stores "
                                + (fileSchema.containsField(name)
                                        ? fileSchema.getType(name).toString().trim()
                                        : "no such column")
                                + ", but its row type needs "
                                + expected.toString().trim());
            }
            fields.add(fileSchema.getType(name));
        }
        return new MessageType(fileSchema.getName(), fields);
    }

    /** {@code expected} with the field id of {@code stored}, if it has one. */
    private static Type withIdOf(Type stored, Type expected) {
        return stored.getId() == null ? expected : expected.withId(stored.getId().intValue());
    }
}
