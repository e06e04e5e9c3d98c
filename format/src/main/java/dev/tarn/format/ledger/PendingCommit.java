package dev.tarn.format.ledger;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One record of the ledger, the last its user's committer wrote: what it was about to publish as
 * checkpoint {@code checkpoint}. Its committables are those the committer's state at that
 * checkpoint carries, by the checkpoint that prepared them (the record's own and earlier ones whose
 * commit is still pending), each with the files it prepared, relative to the table directory.
 *
 * @param writtenMillis when the record was written, by the committer's clock
 * @param committables checkpoint id to the table-relative paths of its prepared files, ascending;
 *     no id is above {@code checkpoint}
 */
public record PendingCommit(
        String user,
        long checkpoint,
        long writtenMillis,
        SortedMap<Long, List<String>> committables) {

    public PendingCommit {
        if (user == null || user.isEmpty() || user.contains("/") || user.startsWith(".")) {
            // The user names the record's file; a '.'-name is a temporary file of a replacement.
            throw new IllegalArgumentException(
                    "A pending commit needs a commit user without '/' that does not start with"
                            + " '.', got '"
                            + user
                            + "'");
        }
        TreeMap<Long, List<String>> copy = new TreeMap<>();
        committables.forEach((id, files) -> copy.put(id, List.copyOf(files)));
        if (!copy.isEmpty() && copy.lastKey() > checkpoint) {
            throw new IllegalArgumentException(
                    String.format(
                            "Pending commit %d of commit user %s carries the committables of a"
                                    + " later checkpoint, %d",
                            checkpoint, user, copy.lastKey()));
        }
        committables = Collections.unmodifiableSortedMap(copy);
    }

    /** Every file the record lists, in the order of its committables. */
    public List<String> files() {
        List<String> all = new ArrayList<>();
        for (Map.Entry<Long, List<String>> committable : committables.entrySet()) {
            all.addAll(committable.getValue());
        }
        return all;
    }
}
