package dev.tarn.format.lsm.tree;

import dev.tarn.format.lsm.KeyValue;
import dev.tarn.format.lsm.KeyValueSchema;
import dev.tarn.format.lsm.lookup.BucketVectors;
import dev.tarn.format.lsm.lookup.LocatedRows;
import dev.tarn.format.lsm.lookup.LookupChangelog;
import dev.tarn.format.lsm.merge.MergeFunction;
import dev.tarn.format.lsm.run.BucketTreeReader;
import dev.tarn.format.lsm.run.FileRunMerge;
import dev.tarn.format.lsm.run.KeyValueFileWriter;
import dev.tarn.format.lsm.run.SortedRunReader;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DataFiles;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;
import org.apache.flink.table.types.logical.RowType;

/**
 * How one bucket's {@link BucketTreeWriter} writes with deletion vectors (SPEC.md, "Deletion
 * vectors"): each merged change of a flush goes through the bucket's {@link LocatedRows}, which
 * marks the key's previous row deleted, and the new row is written whole and placed there. Always:
 * after a flush, each key of the bucket has exactly one row that no vector deletes. Also writes
 * again, this way, what a writer flushed before it knew the bucket's published files. Not
 * thread-safe: as its writer.
 */
final class VectorWrites {

    private final KeyValueSchema schema;
    private final Supplier<MergeFunction> merges;
    private final KeyValueFileWriter.Target target;
    private final BucketTreeReader.ColumnOpener opener;
    private final LookupChangelog lookup;
    private final LocatedRows located;
    private final BucketVectors vectors;

    /**
     * @param opener opens a file as it is written, without its vector
     * @param lookup the bucket's lookup, made with {@code vectors}
     */
    VectorWrites(
            BucketTreeWriter.Setup setup,
            KeyValueFileWriter.Target target,
            BucketTreeReader.ColumnOpener opener,
            LookupChangelog lookup,
            BucketVectors vectors) {
        if (lookup.located() == null) {
            throw new IllegalArgumentException(
                    "The lookup of bucket " + target.dir() + " keeps no row locations");
        }
        this.schema = setup.schema();
        this.merges = setup.merges();
        this.target = target;
        this.opener = opener;
        this.lookup = lookup;
        this.located = lookup.located();
        this.vectors = vectors;
    }

    /** {@code opener}, applying each file's vector as it is at the time the file is opened. */
    static BucketTreeReader.ColumnOpener withVectors(
            BucketTreeReader.ColumnOpener opener, BucketVectors vectors) {
        return (f, type) -> opener.open(f, type).withDeletions(vectors.vector(f.fileName()));
    }

    /**
     * Writes one merged change of a flush: the key's new row, whole, with its previous row marked
     * deleted; a tombstone, deleted in its own file; or nothing if the row stays. REQUIRES: the
     * lookup's flush has begun; keys ascending.
     */
    void write(KeyValueFileWriter writer, KeyValue change) throws IOException {
        KeyValue row = located.apply(change);
        if (row == null) {
            return;
        }
        writer.write(row);
        long location = vectors.location(writer.lastFile(), writer.lastPosition());
        if (row.isRetraction()) {
            vectors.delete(location);
        } else {
            located.placed(location);
        }
    }

    /**
     * Writes the changes of {@code pending} (level-0 files flushed as they came, out of the tree
     * now) again as new level-0 files, oldest first, with the rows they replace marked; {@code
     * pending} stays as it is until {@link #discard}.
     *
     * @throws IllegalStateException if the lookup does not know the bucket's published files yet
     */
    List<DataFile> rewrite(List<DataFile> pending) throws IOException {
        List<SortedRunReader> runs = new ArrayList<>();
        KeyValueFileWriter writer = new KeyValueFileWriter(target, 0);
        boolean began = lookup.begin();
        try {
            if (!began) {
                throw new IllegalStateException("Bucket " + target.dir() + " is not restored");
            }
            List<DataFile> oldestFirst = new ArrayList<>(pending);
            oldestFirst.sort(Comparator.comparingLong(f -> f.sequence().max()));
            RowType fileType = schema.fileType();
            for (DataFile f : oldestFirst) {
                runs.add(new SortedRunReader(List.of(f), g -> opener.open(g, fileType), schema));
            }
            FileRunMerge changes = new FileRunMerge(runs, schema.keys(), merges.get(), false);
            while (changes.hasNext()) {
                write(writer, changes.next());
            }
            return writer.finish();
        } catch (IOException | RuntimeException e) {
            writer.abort();
            throw e;
        } finally {
            for (SortedRunReader run : runs) {
                run.close();
            }
            if (began) {
                lookup.end();
            }
        }
    }

    /**
     * Forgets the vectors of {@code files}, written again by {@link #rewrite}, and deletes them.
     */
    void discard(List<DataFile> files) {
        files.forEach(f -> vectors.forget(f.fileName()));
        DataFiles.deleteUnreferenced(target.io(), target.dir(), files);
    }
}
