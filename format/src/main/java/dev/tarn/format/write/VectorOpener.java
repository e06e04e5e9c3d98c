package dev.tarn.format.write;

import dev.tarn.format.deletion.DeletionVector;
import dev.tarn.format.lsm.run.BucketTreeReader;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.parquet.ParquetDataReader;
import java.io.IOException;
import java.util.Map;
import org.apache.flink.table.types.logical.RowType;

/**
 * Opens the files of a bucket through another opener, each with its deletion vector applied: the
 * rows it deletes are skipped, and the bucket's tree knows which files have some.
 *
 * @param vectors by data file name, none empty
 */
record VectorOpener(BucketTreeReader.ColumnOpener files, Map<String, DeletionVector> vectors)
        implements BucketTreeReader.ColumnOpener {

    /** {@code files} itself where there are no vectors. */
    static BucketTreeReader.ColumnOpener of(
            BucketTreeReader.ColumnOpener files, Map<String, DeletionVector> vectors) {
        return vectors.isEmpty() ? files : new VectorOpener(files, Map.copyOf(vectors));
    }

    @Override
    public ParquetDataReader open(DataFile file, RowType readType) throws IOException {
        return files.open(file, readType).withDeletions(vectors.get(file.fileName()));
    }

    @Override
    public boolean hasDeletions(DataFile file) {
        return vectors.containsKey(file.fileName());
    }
}
