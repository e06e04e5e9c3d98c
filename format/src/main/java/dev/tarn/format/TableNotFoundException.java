package dev.tarn.format;

import org.apache.flink.core.fs.Path;

/** No table (no schema file) exists at a location. */
public class TableNotFoundException extends RuntimeException {

    public TableNotFoundException(String table, Path location) {
        super("Table " + table + " does not exist: no schema file under " + location);
    }
}
