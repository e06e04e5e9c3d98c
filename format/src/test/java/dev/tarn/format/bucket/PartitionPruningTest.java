package dev.tarn.format.bucket;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.manifest.Partition;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.predicate.Predicate.Op;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

/** Pruning by partition values never drops a partition that may match. */
class PartitionPruningTest {

    /** Partitioned by column 2 ({@code dt STRING}) and column 3 ({@code n INT}). */
    private final PartitionPruning partitions = new PartitionPruning(new int[] {2, 3});

    private static Predicate id(Op op, Object... literals) {
        return new Predicate.Leaf(op, 0, "id", new BigIntType(), Arrays.asList(literals));
    }

    private static Predicate dt(Op op, String... literals) {
        return new Predicate.Leaf(
                op,
                2,
                "dt",
                VarCharType.STRING_TYPE,
                Arrays.stream(literals).map(l -> (Object) StringData.fromString(l)).toList());
    }

    private static Predicate n(Op op, Object... literals) {
        return new Predicate.Leaf(op, 3, "n", new IntType(), Arrays.asList(literals));
    }

    @Test
    void partitionValues() {
        Partition x1 = Partition.of("x", "1");
        Partition nulls = new Partition(Arrays.asList(null, null));

        assertThat(partitions.mayMatch(dt(Op.EQ, "x"), x1)).isTrue();
        assertThat(partitions.mayMatch(dt(Op.EQ, "y"), x1)).isFalse();
        assertThat(partitions.mayMatch(dt(Op.IN, "y", "x"), x1)).isTrue();
        assertThat(partitions.mayMatch(dt(Op.NOT_EQ, "x"), x1)).isFalse();
        assertThat(partitions.mayMatch(n(Op.GT, 0), x1)).isTrue();
        assertThat(partitions.mayMatch(n(Op.GT, 1), x1)).isFalse();
        // Integer partitions compare as numbers, not as the text "1" of their directory.
        assertThat(partitions.mayMatch(n(Op.LT, 10), x1)).isTrue();

        assertThat(partitions.mayMatch(dt(Op.IS_NULL), nulls)).isTrue();
        assertThat(partitions.mayMatch(dt(Op.IS_NULL), x1)).isFalse();
        assertThat(partitions.mayMatch(dt(Op.IS_NOT_NULL), nulls)).isFalse();
        assertThat(partitions.mayMatch(dt(Op.IS_NOT_NULL), x1)).isTrue();
        assertThat(partitions.mayMatch(dt(Op.EQ, "x"), nulls)).isFalse();
        assertThat(partitions.mayMatch(dt(Op.NOT_EQ, "x"), nulls)).isFalse();
    }

    @Test
    void filtersOnOtherColumnsNeverPrunePartitions() {
        Partition x1 = Partition.of("x", "1");
        assertThat(partitions.mayMatch(id(Op.EQ, -1L), x1)).isTrue();
        assertThat(
                        partitions.mayMatch(
                                new Predicate.Or(List.of(dt(Op.EQ, "y"), id(Op.EQ, 1L))), x1))
                .isTrue();
        assertThat(
                        partitions.mayMatch(
                                new Predicate.And(List.of(dt(Op.EQ, "y"), id(Op.EQ, 1L))), x1))
                .isFalse();
    }

    @Test
    void datePartitions() {
        PartitionPruning byDate = new PartitionPruning(new int[] {0});
        LogicalType date = new DateType();
        int jan2 = (int) LocalDate.of(2024, 1, 2).toEpochDay();
        Partition p = Partition.of("2024-01-02");
        assertThat(byDate.mayMatch(new Predicate.Leaf(Op.EQ, 0, "d", date, List.of(jan2)), p))
                .isTrue();
        assertThat(byDate.mayMatch(new Predicate.Leaf(Op.GT, 0, "d", date, List.of(jan2)), p))
                .isFalse();
    }
}
