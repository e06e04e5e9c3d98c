package dev.tarn.format.lsm.lookup;

import dev.tarn.format.deletion.DeletionVector;
import dev.tarn.format.deletion.IndexFiles;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.VectorChange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * The deletion vectors of one bucket's files as its writer keeps them (SPEC.md, "Deletion
 * vectors"): the rows its flushes replaced, marked by location, and where each file's vector was
 * last handed out, which is what the next change of it is made on. A location is a file's handle
 * (an int this class gives each file name) and a row position, in one long, so the lookup index
 * keeps one per key without an object. Not thread-safe: the writer's thread uses it; a compaction
 * reads {@linkplain #copyOf copies}.
 */
public final class BucketVectors {

    private final IndexFiles indexFiles;
    private final List<String> names = new ArrayList<>();
    private final Map<String, Integer> handles = new HashMap<>();
    private final Map<String, DeletionVector> vectors = new HashMap<>();

    /**
     * Where each file's vector was last handed out (or restored from): the next change's before.
     */
    private final Map<String, DeletionFile> places = new HashMap<>();

    /** Files whose vector changed since the last {@link #prepareCommit}. */
    private final Set<String> dirty = new HashSet<>();

    /** Files in the table, or handed out to be: a vector change of any other is never published. */
    private final Set<String> handedOut = new HashSet<>();

    /** Rows marked so far: tells whether any row was marked between two moments. */
    private long marks;

    public BucketVectors(IndexFiles indexFiles) {
        this.indexFiles = indexFiles;
    }

    /**
     * Takes in the vectors of the bucket's published {@code files}, from {@code published} by data
     * file name.
     */
    public void restore(Collection<DataFile> files, Map<String, DeletionFile> published)
            throws IOException {
        for (DataFile f : files) {
            handedOut.add(f.fileName());
            DeletionFile place = published.get(f.fileName());
            if (place != null) {
                vectors.put(f.fileName(), indexFiles.read(f.fileName(), place));
                places.put(f.fileName(), place);
            }
        }
    }

    /** Forgets everything: the writer's view of the bucket is rebuilt from the table. */
    public void clear() {
        vectors.clear();
        places.clear();
        dirty.clear();
        handedOut.clear();
    }

    /** The location of row {@code position} of {@code file}. */
    public long location(String file, long position) {
        Integer handle = handles.get(file);
        if (handle == null) {
            handle = names.size();
            names.add(file);
            handles.put(file, handle);
        }
        if (position < 0 || position > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException(
                    "Row position " + position + " of data file " + file + " is out of range");
        }
        return ((long) handle << 32) | position;
    }

    /** The file of a {@linkplain #location location}. */
    public String file(long location) {
        return names.get((int) (location >>> 32));
    }

    /** Marks the row at {@code location} deleted. */
    public void delete(long location) {
        String file = file(location);
        vectors.computeIfAbsent(file, f -> new DeletionVector()).add(location & 0xFFFF_FFFFL);
        dirty.add(file);
        marks++;
    }

    /** How many rows were marked so far. */
    public long marks() {
        return marks;
    }

    /** The vector of {@code file} as it is now, or null if none of its rows is deleted. */
    @Nullable
    public DeletionVector vector(String file) {
        return vectors.get(file);
    }

    /** A copy of the vector of {@code file} that later marks leave as it is; null if none. */
    @Nullable
    public DeletionVector copyOf(String file) {
        DeletionVector v = vectors.get(file);
        return v == null ? null : v.copy();
    }

    /** Whether every row of {@code file} is deleted. */
    public boolean allDeleted(DataFile file) {
        DeletionVector v = vectors.get(file.fileName());
        return v != null && v.cardinality() >= file.rowCount();
    }

    /** What one commit changes of the bucket's vectors, per message. */
    public record Commit(List<VectorChange> appended, List<VectorChange> compacted) {}

    /**
     * Hands out the changes since the last call: writes one index file with the changed vectors of
     * the files the commit publishes or holds, and says, for the commit's APPEND message (its new
     * files and files already published) and its COMPACT message (the compactions' inputs, which
     * go, and outputs), which vector each file had and has. Files compacted away before they were
     * ever handed out leave nothing.
     */
    public Commit prepareCommit(
            List<DataFile> newFiles, List<DataFile> compactBefore, List<DataFile> compactAfter)
            throws IOException {
        Set<String> outputs = new HashSet<>();
        compactAfter.forEach(f -> outputs.add(f.fileName()));
        newFiles.forEach(f -> handedOut.add(f.fileName()));
        Map<String, DeletionVector> changed = new LinkedHashMap<>();
        for (String f : dirty) {
            DeletionVector v = vectors.get(f);
            if (v != null && !v.isEmpty() && (handedOut.contains(f) || outputs.contains(f))) {
                changed.put(f, v);
            }
        }
        dirty.clear();
        Map<String, DeletionFile> written =
                changed.isEmpty() ? Map.of() : indexFiles.write(changed);
        List<VectorChange> appended = new ArrayList<>();
        List<VectorChange> compacted = new ArrayList<>();
        for (Map.Entry<String, DeletionFile> e : written.entrySet()) {
            String f = e.getKey();
            if (outputs.contains(f)) {
                compacted.add(new VectorChange(f, null, e.getValue()));
            } else {
                appended.add(new VectorChange(f, places.get(f), e.getValue()));
            }
            places.put(f, e.getValue());
        }
        for (DataFile input : compactBefore) {
            DeletionFile place = places.remove(input.fileName());
            if (place != null) {
                compacted.add(new VectorChange(input.fileName(), place, null));
            }
            forget(input.fileName());
        }
        handedOut.addAll(outputs);
        return new Commit(appended, compacted);
    }

    /** A file that is gone without ever being handed out (or after a compaction took it). */
    public void forget(String file) {
        vectors.remove(file);
        dirty.remove(file);
        handedOut.remove(file);
    }
}
