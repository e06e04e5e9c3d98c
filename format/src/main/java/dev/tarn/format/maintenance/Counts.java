package dev.tarn.format.maintenance;

/**
 * How the maintenance summaries write a count with its noun: {@code 1 snapshot}, {@code 0
 * snapshots}, {@code 2 snapshots}. Every noun they count takes a plain {@code s}.
 */
final class Counts {

    static String of(long count, String noun) {
        return count + " " + (count == 1 ? noun : noun + "s");
    }

    private Counts() {}
}
