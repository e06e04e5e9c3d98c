package dev.tarn.format.maintenance;

import dev.tarn.format.maintenance.ReferencedFiles.Kind;
import dev.tarn.format.maintenance.ReferencedFiles.Named;
import dev.tarn.format.parquet.ParquetDataReader;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;

/**
 * Finds the data and changelog files of a walk that are missing, of another size than their
 * manifest records, or (deep) whose Parquet footer does not read or records another row count; adds
 * the lists and manifests the walk could not read. Lists each directory once instead of asking for
 * each file's status.
 */
final class DataFileCheck {

    private DataFileCheck() {}

    /** The problems, by key: what is wrong with each file. */
    static Map<String, String> problems(TableContext table, ReferencedFiles walk, boolean deep) {
        Map<String, String> problems = new LinkedHashMap<>(walk.unreadable());
        Map<Path, List<Map.Entry<String, Named>>> byDir = new HashMap<>();
        for (Map.Entry<String, Named> e : walk.named().entrySet()) {
            Kind kind = e.getValue().kind();
            if (kind == Kind.DATA_FILE || kind == Kind.CHANGELOG_FILE) {
                byDir.computeIfAbsent(e.getValue().path().getParent(), d -> new ArrayList<>())
                        .add(e);
            }
        }
        for (Map.Entry<Path, List<Map.Entry<String, Named>>> dir : byDir.entrySet()) {
            Map<String, Long> sizes = new HashMap<>();
            for (FileStatus status : list(table, dir.getKey())) {
                sizes.put(status.getPath().getName(), status.getLen());
            }
            for (Map.Entry<String, Named> e : dir.getValue()) {
                String problem =
                        check(table, e.getValue(), sizes.get(e.getValue().path().getName()), deep);
                if (problem != null) {
                    problems.put(e.getKey(), problem);
                }
            }
        }
        return problems;
    }

    private static String check(TableContext table, Named file, Long size, boolean deep) {
        String what = file.kind() == Kind.DATA_FILE ? "data file" : "changelog file";
        if (size == null) {
            return what + " is missing";
        }
        if (size != file.size()) {
            return String.format(
                    "%s is %d bytes, its manifest records %d (%s)",
                    what, size, file.size(), size < file.size() ? "truncated" : "overwritten");
        }
        if (!deep) {
            return null;
        }
        try {
            long rows = ParquetDataReader.footerRowCount(table.io(), file.path(), file.size());
            return rows == file.rows()
                    ? null
                    : String.format(
                            "%s footer records %d rows, its manifest %d", what, rows, file.rows());
        } catch (IOException e) {
            return what + " is damaged: " + e.getMessage();
        }
    }

    private static FileStatus[] list(TableContext table, Path dir) {
        try {
            return table.io().list(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot list " + dir + " of table " + table.name() + ": " + e.getMessage(), e);
        }
    }
}
