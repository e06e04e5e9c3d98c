package dev.tarn.format.deletion;

import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.LongConsumer;
import javax.annotation.Nullable;
import org.roaringbitmap.RelativeRangeConsumer;
import org.roaringbitmap.RoaringBitmap;

/**
 * The deleted row positions of one data file: a set of longs from 0 to {@link #MAX_POSITION}.
 *
 * <p>A position splits into a key (its high 32 bits) and a low half; each key with at least one
 * position has a 32-bit Roaring bitmap of its low halves. Row positions of real files fit the first
 * key, so a vector is usually one bitmap. Keys are kept in a sorted map rather than an array
 * indexed by key, so a vector with one far position (or a corrupt key in a file) costs one bitmap,
 * not billions of empty ones. Not thread-safe; the codec is {@link DeletionVectorCodec} (SPEC.md,
 * "Deletion vectors").
 */
public final class DeletionVector {

    /**
     * The largest position a vector holds: the one Apache Iceberg's readers accept, so every vector
     * Tarn writes is usable by them (key {@code 2^31 - 2}, low half {@code 2^31}).
     */
    public static final long MAX_POSITION = (((long) Integer.MAX_VALUE - 1) << 32) | (1L << 31);

    /** Never holds an empty bitmap, so two vectors with the same positions have the same keys. */
    private final NavigableMap<Integer, RoaringBitmap> bitmaps = new TreeMap<>();

    /** The bitmap of key 0 (positions below 2^32, every file's in practice), once looked up. */
    @Nullable private RoaringBitmap first;

    public DeletionVector() {}

    /** A copy that later changes of either leave the other as it is. */
    public DeletionVector copy() {
        DeletionVector copy = new DeletionVector();
        bitmaps.forEach((k, b) -> copy.bitmaps.put(k, b.clone()));
        return copy;
    }

    /** A vector of {@code positions}. */
    public static DeletionVector of(long... positions) {
        DeletionVector vector = new DeletionVector();
        for (long position : positions) {
            vector.add(position);
        }
        return vector;
    }

    /**
     * Marks {@code position} deleted.
     *
     * @return whether it was not deleted before
     * @throws IllegalArgumentException naming the position if it is negative or above {@link
     *     #MAX_POSITION}
     */
    public boolean add(long position) {
        check(position);
        return bitmaps.computeIfAbsent(key(position), k -> new RoaringBitmap())
                .checkedAdd(low(position));
    }

    /** Whether {@code position} is deleted; false for any position this vector cannot hold. */
    public boolean contains(long position) {
        if (position >>> 32 == 0) {
            // A key's bitmap, once there, is never replaced: the first one found stays right.
            RoaringBitmap bitmap = firstBitmap();
            return bitmap != null && bitmap.contains((int) position);
        }
        if (position < 0 || position > MAX_POSITION) {
            return false;
        }
        RoaringBitmap bitmap = bitmaps.get(key(position));
        return bitmap != null && bitmap.contains(low(position));
    }

    /** The number of deleted positions. */
    public long cardinality() {
        long cardinality = 0;
        for (RoaringBitmap bitmap : bitmaps.values()) {
            cardinality += bitmap.getLongCardinality();
        }
        return cardinality;
    }

    public boolean isEmpty() {
        return bitmaps.isEmpty();
    }

    /** Adds every position of {@code other} to this vector ({@code other} is unchanged). */
    public void merge(DeletionVector other) {
        for (Map.Entry<Integer, RoaringBitmap> entry : other.bitmaps.entrySet()) {
            RoaringBitmap mine = bitmaps.get(entry.getKey());
            if (mine == null) {
                bitmaps.put(entry.getKey(), entry.getValue().clone());
            } else {
                mine.or(entry.getValue());
            }
        }
    }

    /**
     * The smallest deleted position at or after {@code from}, or -1 if there is none: a reader
     * walking a file's rows in order skips from one deleted row to the next without testing each.
     */
    public long nextDeleted(long from) {
        long start = Math.max(from, 0);
        if (start > MAX_POSITION) {
            return -1;
        }
        int firstKey = key(start);
        for (Map.Entry<Integer, RoaringBitmap> entry : bitmaps.tailMap(firstKey, true).entrySet()) {
            int fromLow = entry.getKey() == firstKey ? low(start) : 0;
            long next = entry.getValue().nextValue(fromLow);
            if (next >= 0) {
                return position(entry.getKey(), (int) next);
            }
        }
        return -1;
    }

    /**
     * Writes to {@code kept}, ascending, the offsets {@code i} in {@code [0, rows)} whose position
     * {@code first + i} is not deleted, and returns how many: a reader that decodes {@code rows}
     * rows from position {@code first} selects the ones it serves. Walks the bitmap's containers
     * over the range once (runs of kept rows are written as runs), rather than searching it for
     * each deleted row.
     *
     * @param kept at least {@code rows} long
     */
    public int keptRows(long first, int rows, int[] kept) {
        if (first < 0 || rows < 0 || kept.length < rows) {
            throw new IllegalArgumentException(
                    "Cannot select "
                            + rows
                            + " rows from position "
                            + first
                            + " into "
                            + kept.length);
        }
        KeptRows out = new KeptRows(kept);
        long end = first + rows;
        long at = first;
        while (at < end) {
            out.offset = (int) (at - first);
            if (at > MAX_POSITION) {
                // Past every position a vector holds: the rest is kept.
                out.acceptAllAbsent(0, (int) (end - at));
                break;
            }
            int key = key(at);
            long keyEnd = Math.min(end, position(key + 1, 0));
            int length = (int) (keyEnd - at);
            RoaringBitmap bitmap = key == 0 ? firstBitmap() : bitmaps.get(key);
            if (bitmap == null) {
                out.acceptAllAbsent(0, length);
            } else {
                bitmap.forAllInRange(low(at), length, out);
            }
            at = keyEnd;
        }
        return out.count;
    }

    @Nullable
    private RoaringBitmap firstBitmap() {
        RoaringBitmap bitmap = first;
        if (bitmap == null) {
            bitmap = bitmaps.get(0);
            first = bitmap;
        }
        return bitmap;
    }

    /** Collects the offsets of absent (kept) positions of a range, shifted by {@link #offset}. */
    private static final class KeptRows implements RelativeRangeConsumer {

        private final int[] kept;
        private int count;
        private int offset;

        KeptRows(int[] kept) {
            this.kept = kept;
        }

        @Override
        public void acceptPresent(int relativePos) {}

        @Override
        public void acceptAbsent(int relativePos) {
            kept[count++] = offset + relativePos;
        }

        @Override
        public void acceptAllPresent(int relativeFrom, int relativeTo) {}

        @Override
        public void acceptAllAbsent(int relativeFrom, int relativeTo) {
            for (int i = relativeFrom; i < relativeTo; i++) {
                kept[count++] = offset + i;
            }
        }
    }

    /** Calls {@code consumer} with every deleted position, in ascending order. */
    public void forEach(LongConsumer consumer) {
        for (Map.Entry<Integer, RoaringBitmap> entry : bitmaps.entrySet()) {
            int key = entry.getKey();
            entry.getValue().forEach((int low) -> consumer.accept(position(key, low)));
        }
    }

    /** The bitmaps by key, ascending, none empty: for the codec. */
    NavigableMap<Integer, RoaringBitmap> bitmaps() {
        return bitmaps;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeletionVector other && bitmaps.equals(other.bitmaps);
    }

    @Override
    public int hashCode() {
        // Not the bitmaps' hashes: a run-length container and an array container of the same
        // positions are equal but may hash differently.
        return 31 * bitmaps.keySet().hashCode() + Long.hashCode(cardinality());
    }

    @Override
    public String toString() {
        return "DeletionVector[cardinality=" + cardinality() + "]";
    }

    static void check(long position) {
        if (position < 0 || position > MAX_POSITION) {
            throw new IllegalArgumentException(
                    "Deletion vector position "
                            + position
                            + " is out of range: positions go from 0 to "
                            + MAX_POSITION);
        }
    }

    static int key(long position) {
        return (int) (position >>> 32);
    }

    private static int low(long position) {
        return (int) position;
    }

    static long position(int key, int low) {
        return ((long) key << 32) | (low & 0xFFFFFFFFL);
    }
}
