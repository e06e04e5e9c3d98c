package dev.tarn.format.read;

import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.Partition;
import java.io.Serializable;
import java.util.List;

/**
 * A unit of reading: some files of one bucket of one partition, as of one snapshot. All files of a
 * split are read by one reader, in list order.
 */
public record Split(
        long snapshotId, Partition partition, int bucket, int totalBuckets, List<DataFile> files)
        implements Serializable {

    public Split {
        files = List.copyOf(files);
    }

    public long rowCount() {
        return files.stream().mapToLong(DataFile::rowCount).sum();
    }
}
