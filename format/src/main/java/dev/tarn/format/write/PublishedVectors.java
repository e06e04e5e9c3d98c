package dev.tarn.format.write;

import dev.tarn.format.deletion.DeletionVector;
import dev.tarn.format.manifest.BucketId;
import java.io.IOException;
import java.util.Map;

/**
 * The deletion vectors a primary-key table write applies to the published files of a bucket it
 * reads (for compaction and lookups), by data file name: their deleted rows are skipped, and a full
 * compaction rewrites a file that has some. Asked once per bucket, when the write opens it.
 */
@FunctionalInterface
public interface PublishedVectors {

    /** No vectors: every file is read whole. */
    PublishedVectors NONE = bucket -> Map.of();

    /**
     * The vectors of the files of {@code bucket}, by data file name; none for a file without.
     *
     * @throws IOException naming the index file if a vector cannot be read
     */
    Map<String, DeletionVector> of(BucketId bucket) throws IOException;
}
