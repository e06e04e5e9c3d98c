package dev.tarn.format.read;

/**
 * Counts, while one plan is made, the manifests it reads and the files it keeps and skips: the
 * {@link ScanStats} of the plan. One per plan; not thread-safe.
 */
final class ScanTally {

    private final long startNanos = System.nanoTime();
    private long manifests;
    private long skipped;
    private long resulted;

    /** The plan read the entries of {@code count} manifest files. */
    void manifests(int count) {
        manifests += count;
    }

    /** Of {@code considered} files, the plan keeps {@code kept}; the filter ruled out the rest. */
    void files(int considered, int kept) {
        skipped += considered - kept;
        resulted += kept;
    }

    /** What was counted, with the time since the tally was made. */
    ScanStats stats() {
        return new ScanStats(
                (System.nanoTime() - startNanos) / 1_000_000, manifests, skipped, resulted);
    }
}
