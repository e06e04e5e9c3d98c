package dev.tarn.format.lsm.lookup;

import dev.tarn.format.lsm.KeyValueSchema;
import dev.tarn.format.lsm.merge.MergeFunction;
import dev.tarn.format.lsm.run.BucketTreeReader;
import dev.tarn.format.lsm.run.Sections;
import dev.tarn.format.lsm.run.SortedRun;
import dev.tarn.format.manifest.DataFile;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;

/**
 * The current rows of keys asked for in ascending order, read from a bucket's files without an
 * index: a merge join of the keys against the bucket's merged rows, section by section ({@link
 * Sections}). A section is opened only once a key asked for falls within its key range, and left
 * behind once the keys pass it, so a few keys cost the sections they fall in, not the bucket. What
 * a bucket whose {@link LookupIndex} does not fit in memory looks up at each flush. Not
 * thread-safe.
 */
final class PreviousRows implements Closeable {

    private final KeyValueSchema schema;
    private final BucketTreeReader.ColumnOpener opener;
    private final Supplier<MergeFunction> merges;
    private final List<List<DataFile>> sections = new ArrayList<>();
    private final List<byte[]> mins = new ArrayList<>();
    private final List<byte[]> maxs = new ArrayList<>();
    private int section = -1;
    @Nullable private BucketTreeReader reader;
    @Nullable private RowData head;
    private long bytesRead;

    PreviousRows(
            KeyValueSchema schema,
            List<DataFile> files,
            BucketTreeReader.ColumnOpener opener,
            Supplier<MergeFunction> merges) {
        this.schema = schema;
        this.opener = opener;
        this.merges = merges;
        for (List<SortedRun> runs : Sections.of(schema, files)) {
            List<DataFile> sectionFiles = new ArrayList<>();
            byte[] min = null;
            byte[] max = null;
            for (SortedRun run : runs) {
                for (DataFile f : run.files()) {
                    sectionFiles.add(f);
                    if (min == null || schema.compareKeys(f.keyRange().min(), min) < 0) {
                        min = f.keyRange().min();
                    }
                    if (max == null || schema.compareKeys(f.keyRange().max(), max) > 0) {
                        max = f.keyRange().max();
                    }
                }
            }
            sections.add(sectionFiles);
            mins.add(min);
            maxs.add(max);
        }
    }

    /**
     * The current row of the key of {@code key} (a table row), or null if it has none; valid until
     * the next call. REQUIRES: each call's key is greater than the previous call's.
     */
    @Nullable
    RowData find(RowData key) throws IOException {
        while (section < sections.size()
                && (section < 0 || schema.compareToKey(key, maxs.get(section)) > 0)) {
            closeReader();
            section++;
        }
        if (section >= sections.size() || schema.compareToKey(key, mins.get(section)) < 0) {
            return null;
        }
        if (reader == null) {
            reader = new BucketTreeReader(schema, sections.get(section), opener, merges.get());
            head = reader.next();
        }
        while (head != null && schema.keys().compare(head, key) < 0) {
            head = reader.next();
        }
        return head != null && schema.keys().compare(head, key) == 0 ? head : null;
    }

    /** Bytes read from data files so far. */
    long bytesRead() {
        return bytesRead + (reader == null ? 0 : reader.bytesRead());
    }

    @Override
    public void close() throws IOException {
        closeReader();
        section = sections.size();
    }

    private void closeReader() throws IOException {
        if (reader != null) {
            bytesRead += reader.bytesRead();
            reader.close();
            reader = null;
            head = null;
        }
    }
}
