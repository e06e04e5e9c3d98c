package dev.tarn.catalog.procedure;

import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ObjectPath;

/** The {@code table} argument of a procedure: {@code 'database.table'}. */
final class TableArgument {

    private TableArgument() {}

    /**
     * @param action what the procedure does to it, for the error: {@code compact}, {@code check}
     */
    static ObjectPath parse(String table, String action) {
        if (table == null) {
            throw new ValidationException(
                    "Cannot " + action + " a table: name it as 'database.table'");
        }
        try {
            return ObjectPath.fromString(table);
        } catch (IllegalArgumentException e) {
            throw new ValidationException(
                    "Cannot " + action + " '" + table + "': name a table as 'database.table'", e);
        }
    }
}
