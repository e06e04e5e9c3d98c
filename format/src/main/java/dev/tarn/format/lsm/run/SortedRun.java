package dev.tarn.format.lsm.run;

import dev.tarn.format.manifest.DataFile;
import java.util.List;

/**
 * Files of one bucket that together hold at most one change per key, in key order: a single level-0
 * file, or all files of one higher level. Always: the files' key ranges never overlap and are
 * listed in key order.
 */
public record SortedRun(int level, List<DataFile> files) {

    public SortedRun {
        files = List.copyOf(files);
    }

    public long sizeBytes() {
        return files.stream().mapToLong(DataFile::fileSize).sum();
    }
}
