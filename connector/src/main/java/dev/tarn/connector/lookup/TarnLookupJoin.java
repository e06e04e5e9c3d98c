package dev.tarn.connector.lookup;

import dev.tarn.format.Table;
import dev.tarn.format.lookup.LookupShuffle;
import dev.tarn.format.predicate.Predicate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import javax.annotation.Nullable;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.source.LookupTableSource.LookupRuntimeProvider;
import org.apache.flink.table.connector.source.abilities.SupportsLookupCustomShuffle.InputDataPartitioner;
import org.apache.flink.table.connector.source.lookup.AsyncLookupFunctionProvider;
import org.apache.flink.table.connector.source.lookup.LookupFunctionProvider;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * A Tarn table as the right side of a lookup join ({@code JOIN t FOR SYSTEM_TIME AS OF
 * s.proc_time}): the lookup functions the planner runs, and the partitioner that routes each fact
 * to the subtask holding its bucket.
 *
 * <pre>
 *   facts --(LOOKUP 'shuffle'='true': by bucket of the join key)--> lookup join subtask i
 *                                                                    holds TableLookup(i, n)
 *   facts --(otherwise: as they come)-----------------------------> every subtask holds all
 * </pre>
 */
public final class TarnLookupJoin {

    /**
     * The table columns a lookup is keyed by, in the planner's order of the key fields: each of the
     * planner's key index paths into {@code readType} (the source's row after projection) named.
     *
     * @throws ValidationException for a key nested in a column, naming the table and the path
     */
    public static List<String> joinKeys(String table, RowType readType, int[][] keys) {
        List<String> names = new ArrayList<>(keys.length);
        for (int[] path : keys) {
            if (path.length != 1) {
                throw new ValidationException(
                        String.format(
                                "Cannot look up table %s by the nested field at index path %s: a"
                                        + " Tarn lookup join equates top-level columns only",
                                table, Arrays.toString(path)));
            }
            names.add(readType.getFieldNames().get(path[0]));
        }
        return names;
    }

    /**
     * The partitioner that sends a fact to the subtask holding its bucket, or empty where the join
     * keys do not determine the bucket (they lack a bucket-key or partition column, or the table
     * has no fixed bucket count).
     */
    public static Optional<InputDataPartitioner> partitioner(Table table, List<String> joinKeys) {
        return LookupShuffle.of(table.schema(), table.config().bucket(), joinKeys)
                .map(BucketPartitioner::new);
    }

    /**
     * The lookup function of a join on {@code joinKeys}, returning rows of {@code readType}.
     *
     * @param filter the pushed-down filters of the table side (Flink applies them again)
     * @param shuffled whether the planner applies {@link #partitioner}: each subtask then holds
     *     only its share of the buckets
     */
    public static LookupRuntimeProvider provider(
            Table table,
            RowType readType,
            @Nullable Predicate filter,
            List<String> joinKeys,
            boolean shuffled,
            LookupSettings settings) {
        int[] projection = table.schema().fieldIndexes(readType.getFieldNames());
        RefreshingLookup lookup =
                new RefreshingLookup(table, joinKeys, projection, filter, shuffled);
        return settings.async()
                ? AsyncLookupFunctionProvider.of(
                        new TarnAsyncLookupFunction(lookup, settings.asyncThreads()))
                : LookupFunctionProvider.of(new TarnLookupFunction(lookup));
    }

    /** {@link LookupShuffle} as Flink's partitioner of a lookup join's input. */
    private record BucketPartitioner(LookupShuffle shuffle) implements InputDataPartitioner {

        @Override
        public int partition(RowData joinKeys, int numPartitions) {
            return shuffle.subtask(joinKeys, numPartitions);
        }
    }

    private TarnLookupJoin() {}
}
