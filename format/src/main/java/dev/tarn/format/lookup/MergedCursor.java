package dev.tarn.format.lookup;

import java.io.IOException;
import java.util.List;
import org.apache.flink.table.data.binary.BinaryRowData;

/**
 * Merges the cursors of a {@link SpillingBucketStore}'s sources in index-key order, one entry per
 * index key: of entries with equal keys, the one of the first source (the newest) wins. Linear
 * choice of the least: a store has at most a handful of sources. Not thread-safe.
 */
final class MergedCursor {

    /** Receives each winning entry; the row is valid during the call only. */
    @FunctionalInterface
    interface Entries {
        void accept(BinaryRowData row, boolean tombstone) throws IOException;
    }

    private final IndexOrder order;
    private final List<RunCursor> sources;

    MergedCursor(IndexOrder order, List<RunCursor> sources) {
        this.order = order;
        this.sources = sources;
    }

    void forEach(Entries out) throws IOException {
        int fields = order.fields();
        int n = sources.size();
        boolean[] tied = new boolean[n];
        while (true) {
            RunCursor least = null;
            for (int i = 0; i < n; i++) {
                RunCursor c = sources.get(i);
                tied[i] = false;
                if (!c.valid()) {
                    continue;
                }
                int cmp =
                        least == null
                                ? -1
                                : order.compare(
                                        c.prefix(), c.row(), least.prefix(), least.row(), fields);
                if (cmp < 0) {
                    least = c;
                    java.util.Arrays.fill(tied, 0, i, false);
                    tied[i] = true;
                } else if (cmp == 0) {
                    tied[i] = true;
                }
            }
            if (least == null) {
                return;
            }
            out.accept(least.row(), least.tombstone());
            for (int i = 0; i < n; i++) {
                if (tied[i]) {
                    sources.get(i).next();
                }
            }
        }
    }
}
