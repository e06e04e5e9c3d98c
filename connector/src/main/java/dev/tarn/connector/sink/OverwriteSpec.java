package dev.tarn.connector.sink;

import dev.tarn.format.manifest.Partition;
import java.io.Serializable;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What an {@code INSERT OVERWRITE} replaces: the partitions matching a static partition spec, the
 * partitions the query writes (dynamic), or the whole table.
 *
 * @param staticPartition partition key to value, for {@code PARTITION (k = v, ...)}
 * @param dynamic replace only the partitions written (when no static spec covers all keys)
 */
record OverwriteSpec(Map<String, String> staticPartition, boolean dynamic) implements Serializable {

    OverwriteSpec {
        staticPartition = Map.copyOf(staticPartition);
    }

    /** Which existing partitions to replace, given the partitions this commit writes. */
    Predicate<Partition> scope(List<String> partitionKeys, Set<Partition> written) {
        if (dynamic && !partitionKeys.isEmpty()) {
            Set<Partition> replaced = new HashSet<>(written);
            return p -> replaced.contains(p) && matchesStatic(partitionKeys, p);
        }
        return p -> matchesStatic(partitionKeys, p);
    }

    private boolean matchesStatic(List<String> partitionKeys, Partition p) {
        for (Map.Entry<String, String> e : staticPartition.entrySet()) {
            int i = partitionKeys.indexOf(e.getKey());
            if (i < 0 || !e.getValue().equals(p.values().get(i))) {
                return false;
            }
        }
        return true;
    }
}
