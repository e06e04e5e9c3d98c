package dev.tarn.format.lookup;

import dev.tarn.format.predicate.Predicate;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import javax.annotation.Nullable;

/**
 * What a lookup join asks of a table.
 *
 * @param joinKeys table columns the join equates, in the order of the key rows given to {@link
 *     TableLookup#get}
 * @param projection table field indexes the returned rows hold, in this order
 * @param filter on the table's columns; rows failing it are not kept (null: none)
 * @param subtask which share of the buckets this instance holds (see {@link LookupShuffle})
 * @param subtasks among how many; {@code 0, 1} holds all
 * @param localDir a local directory this instance may spill rows to (its own)
 */
public record LookupSpec(
        List<String> joinKeys,
        int[] projection,
        @Nullable Predicate filter,
        int subtask,
        int subtasks,
        Path localDir) {

    public LookupSpec {
        joinKeys = List.copyOf(joinKeys);
        projection = projection.clone();
        if (joinKeys.isEmpty()) {
            throw new IllegalArgumentException("A lookup join needs at least one join key column");
        }
        if (new HashSet<>(joinKeys).size() != joinKeys.size()) {
            throw new IllegalArgumentException(
                    "A lookup join's key columns must be distinct, got " + joinKeys);
        }
        if (subtasks < 1 || subtask < 0 || subtask >= subtasks) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid lookup subtask %d of %d: the count must be positive and the"
                                    + " subtask between 0 and the count less 1",
                            subtask, subtasks));
        }
    }

    @Override
    public int[] projection() {
        return projection.clone();
    }
}
