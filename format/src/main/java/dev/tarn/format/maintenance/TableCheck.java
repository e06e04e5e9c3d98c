package dev.tarn.format.maintenance;

import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.table.TableContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeSet;

/**
 * Checks that every file the roots of a table need is there (SPEC.md, "Integrity check"): each
 * snapshot file parses, each manifest list, manifest and index manifest reads and passes its
 * checksum, each live data file and each changelog file exists with the size its manifest records,
 * and with {@code deep} its Parquet footer reads and records the row count of the manifest; each
 * deletion vector's index file exists and the vector reads and fits its live data file ({@link
 * VectorCheck}). Each problem is listed with the snapshots that need the file, and the newest
 * snapshot that needs none of them is named, so an operator can roll back to a whole snapshot. A
 * lost prepared file (no snapshot needs it) is found through the ledger of pending commits instead
 * ({@link PendingCheck}), with the checkpoint its job can be restored from. Reads each list and
 * manifest once and lists each bucket directory once.
 */
public final class TableCheck {

    /**
     * A file that is missing or damaged.
     *
     * @param snapshots the ids of the snapshots that need it, ascending
     */
    public record Problem(String file, String problem, List<Long> snapshots) {}

    /**
     * What a check found.
     *
     * @param snapshots how many root snapshots were checked
     * @param files how many data, changelog and metadata files were checked
     * @param newestWhole the newest snapshot that needs no file with a problem, if any
     * @param pending what the ledger of pending commits says: missing prepared files, restore
     *     points, users untouched for longer than {@code pending-commit.retention}
     */
    public record Result(
            String table,
            List<Problem> problems,
            int snapshots,
            long files,
            boolean deep,
            OptionalLong newestWhole,
            PendingCheck.Result pending) {

        /** One line for an operator. */
        public String summary() {
            if (snapshots == 0 && problems.isEmpty()) {
                return "Table " + table + " has no snapshot: nothing to check";
            }
            String checked =
                    String.format(
                            "checked %s and %s%s",
                            count(snapshots, "snapshot"),
                            count(files, "file"),
                            deep ? ", reading each data file's footer" : "");
            if (problems.isEmpty()) {
                return String.format("Table %s is whole: %s", table, checked);
            }
            return String.format(
                    "Table %s has %s (%s); %s",
                    table,
                    count(problems.size(), "missing or damaged file"),
                    checked,
                    newestWhole.isPresent()
                            ? "newest whole snapshot: " + newestWhole.getAsLong()
                            : "no snapshot is whole");
        }

        /** "1 file", "2 files". */
        private static String count(long n, String noun) {
            return n + " " + noun + (n == 1 ? "" : "s");
        }
    }

    private TableCheck() {}

    /** Checks {@code table} now; {@code deep} also reads every data file's footer. */
    public static Result run(TableContext table, boolean deep) {
        Roots roots = Roots.gather(table);
        ReferencedFiles referenced = ReferencedFiles.walk(table, roots.snapshots());
        PendingCheck.Result pending = PendingCheck.run(table, roots.snapshots(), Instant.now());
        Map<String, String> found = DataFileCheck.problems(table, referenced, deep);
        found.putAll(VectorCheck.problems(table, referenced, roots.snapshots()));
        Map<String, TreeSet<Long>> needers = referenced.neededBy(found.keySet());
        List<Problem> problems = new ArrayList<>();
        TreeSet<Long> broken = new TreeSet<>();
        for (Roots.Unreadable snapshot : roots.unreadable()) {
            problems.add(new Problem(snapshot.file(), snapshot.problem(), List.of()));
        }
        found.forEach(
                (key, problem) -> {
                    TreeSet<Long> ids = needers.get(key);
                    if (ids != null && !ids.isEmpty()) {
                        // A file no root needs (a prepared file, or one expiration removed) is no
                        // damage.
                        problems.add(
                                new Problem(
                                        referenced.named().get(key).path().toString(),
                                        problem,
                                        List.copyOf(ids)));
                        broken.addAll(ids);
                    }
                });
        problems.sort(Comparator.comparing(Problem::file));
        OptionalLong newestWhole = OptionalLong.empty();
        for (Snapshot s : roots.snapshots()) {
            if (!broken.contains(s.id())) {
                newestWhole = OptionalLong.of(s.id());
            }
        }
        return new Result(
                table.name(),
                List.copyOf(problems),
                roots.snapshots().size(),
                referenced.named().size(),
                deep,
                newestWhole,
                pending);
    }
}
