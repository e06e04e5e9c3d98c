package dev.tarn.format.parquet;

import java.io.EOFException;
import java.io.IOException;
import org.apache.flink.core.fs.Path;

/** The errors of reading a data file that is not (or no longer) valid Parquet, naming the file. */
final class ParquetReadErrors {

    private ParquetReadErrors() {}

    /** Whether Parquet failed to decode (rather than to read) the file. */
    static boolean corrupt(IOException e) {
        if (e instanceof EOFException) {
            return true;
        }
        for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
            if (t.getClass().getName().contains(".thrift.")) {
                return true;
            }
        }
        return false;
    }

    static IOException notParquet(Path path, String where, Exception cause) {
        return new IOException(
                "Cannot read "
                        + path
                        + ": not a valid Parquet file ("
                        + where
                        + ": "
                        + cause.getMessage()
                        + ")",
                cause);
    }
}
