package dev.tarn.format.schema;

import dev.tarn.format.schema.TableSchema.DataField;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * Whether files a writer wrote under one schema version may still be committed once the table has a
 * later one (SPEC.md, "Writers under an older schema"). They may if they read through the latest
 * schema by the rules of schema evolution and were laid out as it lays out rows: the writer's
 * schema is still the table's schema of that id, every column the writer wrote has its type or a
 * widening of it, every column it lacks reads as null or its default, and the keys, partitioning
 * and the options that shape stored data are the writer's.
 */
final class WriterCompatibility {

    private WriterCompatibility() {}

    /**
     * Why files of {@code writer} cannot be committed under {@code latest}, or null if they can.
     *
     * @param stored the table's schema file of {@code writer.id()} as it is now, or null if it is
     *     gone
     */
    @Nullable
    static String refusal(TableSchema writer, @Nullable TableSchema stored, TableSchema latest) {
        if (stored == null
                || !stored.sameColumns(writer)
                || !stored.primaryKeys().equals(writer.primaryKeys())
                || !stored.partitionKeys().equals(writer.partitionKeys())) {
            return "the table's schema "
                    + writer.id()
                    + (stored == null ? " no longer exists" : " is no longer the writer's")
                    + " (was the table dropped and created again?)";
        }
        Map<Integer, DataField> latestById = new HashMap<>();
        latest.fields().forEach(f -> latestById.put(f.id(), f));
        List<String> keysOfWriter = ids(writer, writer.primaryKeys());
        if (!keysOfWriter.equals(ids(latest, latest.primaryKeys()))) {
            return "its primary key changed from "
                    + writer.primaryKeys()
                    + " to "
                    + latest.primaryKeys();
        }
        if (!ids(writer, writer.partitionKeys()).equals(ids(latest, latest.partitionKeys()))) {
            return "its partition keys changed from "
                    + writer.partitionKeys()
                    + " to "
                    + latest.partitionKeys();
        }
        String option = OptionChanges.firstFixedChange(writer, latest);
        if (option != null) {
            return "option '"
                    + option
                    + "', which shapes how rows are stored, changed from "
                    + OptionChanges.describe(writer, option)
                    + " to "
                    + OptionChanges.describe(latest, option);
        }
        for (DataField f : writer.fields()) {
            DataField now = latestById.get(f.id());
            String reason = now == null ? null : TypeWidening.refusal(f.type(), now.type());
            if (reason != null) {
                return "column "
                        + f.name()
                        + " changed from "
                        + f.type().asSummaryString()
                        + " to "
                        + now.type().asSummaryString()
                        + ", which the writer's values do not read as: "
                        + reason;
            }
        }
        for (DataField f : latest.fields()) {
            boolean written = writer.fields().stream().anyMatch(w -> w.id() == f.id());
            if (!written
                    && !f.type().isNullable()
                    && !latest.options().containsKey(ColumnDefaults.key(f.name()))) {
                return "column "
                        + f.name()
                        + " was added NOT NULL without a default, and the writer's rows have no"
                        + " value for it";
            }
        }
        return null;
    }

    /** The field ids of {@code names} in {@code schema}, as text, in order. */
    private static List<String> ids(TableSchema schema, List<String> names) {
        List<String> ids = new ArrayList<>();
        for (String name : names) {
            ids.add(Integer.toString(schema.fields().get(schema.fieldIndex(name)).id()));
        }
        return ids;
    }
}
