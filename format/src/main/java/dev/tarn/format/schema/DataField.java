package dev.tarn.format.schema;

import java.io.Serializable;
import javax.annotation.Nullable;
import org.apache.flink.table.types.logical.LogicalType;

/** One top-level column: a stable id that survives renames, its name, type and comment. */
public record DataField(int id, String name, LogicalType type, @Nullable String description)
        implements Serializable {

    public DataField {
        if (id < 0) {
            throw new IllegalArgumentException("Field id of " + name + " must be >= 0: " + id);
        }
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("Field " + id + " has no name");
        }
    }
}
