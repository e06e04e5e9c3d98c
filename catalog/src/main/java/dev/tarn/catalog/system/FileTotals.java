package dev.tarn.catalog.system;

import dev.tarn.format.read.TableFiles.BucketFile;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.Path;

/**
 * What a group of live files adds up to, for {@code t$partitions} and {@code t$buckets}: their rows
 * as stored (in a primary-key table, every version of a key a file holds, not the merged rows),
 * bytes, files, level-0 files, and when the newest of them was written.
 */
final class FileTotals {

    long records;
    long bytes;
    long files;
    long level0Files;
    @Nullable Long lastWritten;

    /** Adds {@code file}, written at {@code writeTimes.get(file.path())} if known. */
    void add(BucketFile file, Map<Path, Long> writeTimes) {
        records += file.file().rowCount();
        bytes += file.file().fileSize();
        files++;
        if (file.file().level() == 0) {
            level0Files++;
        }
        Long written = writeTimes.get(file.path());
        if (written != null && (lastWritten == null || written > lastWritten)) {
            lastWritten = written;
        }
    }
}
