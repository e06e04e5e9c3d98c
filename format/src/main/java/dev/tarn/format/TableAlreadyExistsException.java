package dev.tarn.format;

import org.apache.flink.core.fs.Path;

/** A table already exists at the location a new table was to be created. */
public class TableAlreadyExistsException extends RuntimeException {

    public TableAlreadyExistsException(String table, Path location) {
        super("Table " + table + " already exists at " + location);
    }
}
