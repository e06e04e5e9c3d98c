package dev.tarn.format.deletion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class DeletionVectorTest {

    static final long TWO_TO_32 = 1L << 32;

    @Test
    void anEmptyVectorDeletesNothing() {
        DeletionVector vector = new DeletionVector();

        assertThat(vector.isEmpty()).isTrue();
        assertThat(vector.cardinality()).isZero();
        assertThat(vector.contains(0)).isFalse();
        assertThat(vector.nextDeleted(0)).isEqualTo(-1);
        assertThat(positions(vector)).isEmpty();
    }

    @Test
    void addSaysWhetherThePositionIsNew() {
        DeletionVector vector = new DeletionVector();

        assertThat(vector.add(7)).isTrue();
        assertThat(vector.add(7)).isFalse();
        assertThat(vector.add(TWO_TO_32 + 7)).isTrue();
        assertThat(vector.cardinality()).isEqualTo(2);
        assertThat(vector.isEmpty()).isFalse();
    }

    @Test
    void positionsOutsideTheRangeAreRejectedWithTheValue() {
        DeletionVector vector = new DeletionVector();

        assertThatThrownBy(() -> vector.add(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Deletion vector position -1 is out of range: positions go from 0 to "
                                + DeletionVector.MAX_POSITION);
        assertThatThrownBy(() -> vector.add(DeletionVector.MAX_POSITION + 1))
                .hasMessageStartingWith(
                        "Deletion vector position " + (DeletionVector.MAX_POSITION + 1));
        assertThat(vector.add(DeletionVector.MAX_POSITION)).isTrue();
        assertThat(vector.contains(-1)).isFalse();
        assertThat(vector.contains(Long.MAX_VALUE)).isFalse();
    }

    @Test
    void positionsAcrossThe32BitBoundaryKeepTheirOrder() {
        long[] positions = {
            0, TWO_TO_32 - 1, TWO_TO_32, TWO_TO_32 + 1, (5L << 32) + 3, DeletionVector.MAX_POSITION
        };
        DeletionVector vector = DeletionVector.of(positions);

        assertThat(positions(vector)).containsExactly(toObjects(positions));
        assertThat(vector.nextDeleted(1)).isEqualTo(TWO_TO_32 - 1);
        assertThat(vector.nextDeleted(TWO_TO_32 + 2)).isEqualTo((5L << 32) + 3);
        assertThat(vector.nextDeleted((5L << 32) + 4)).isEqualTo(DeletionVector.MAX_POSITION);
        assertThat(vector.nextDeleted(DeletionVector.MAX_POSITION + 1)).isEqualTo(-1);
        assertThat(vector.nextDeleted(-5)).isZero();
        assertThat(vector.contains(2 * TWO_TO_32)).isFalse();
    }

    @Test
    void randomSetsBehaveAsATreeSet() {
        Random random = new Random(42);
        for (int round = 0; round < 50; round++) {
            TreeSet<Long> model = randomPositions(random, random.nextInt(2000));
            DeletionVector vector = new DeletionVector();
            for (long position : model) {
                assertThat(vector.add(position)).isTrue();
            }

            assertThat(vector.cardinality()).isEqualTo(model.size());
            assertThat(positions(vector)).containsExactlyElementsOf(model);
            for (int probe = 0; probe < 200; probe++) {
                long from =
                        probe % 2 == 0 || model.isEmpty()
                                ? randomPosition(random)
                                : near(random, model);
                Long next = model.ceiling(from);
                assertThat(vector.nextDeleted(from)).isEqualTo(next == null ? -1 : next);
                assertThat(vector.contains(from)).isEqualTo(model.contains(from));
            }
        }
    }

    @Test
    void keptRowsOfARangeAreThoseATreeSetDoesNotHold() {
        Random random = new Random(11);
        int[] kept = new int[3000];
        for (int round = 0; round < 50; round++) {
            TreeSet<Long> model = randomPositions(random, random.nextInt(2000));
            // Dense runs, as a file whose rows are mostly replaced has.
            long runStart = random.nextInt(5000);
            for (long p = runStart; p < runStart + random.nextInt(3000); p++) {
                model.add(p);
            }
            DeletionVector vector = fromModel(model);
            for (int probe = 0; probe < 100; probe++) {
                long first =
                        probe % 2 == 0 || model.isEmpty()
                                ? randomPosition(random)
                                : Math.max(0, near(random, model) - random.nextInt(100));
                int rows = random.nextInt(kept.length + 1);
                List<Integer> expected = new ArrayList<>();
                for (int i = 0; i < rows; i++) {
                    if (!model.contains(first + i)) {
                        expected.add(i);
                    }
                }

                int count = vector.keptRows(first, rows, kept);

                List<Integer> actual = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    actual.add(kept[i]);
                }
                assertThat(actual).as("kept rows of %d from %d", rows, first).isEqualTo(expected);
            }
        }
    }

    @Test
    void keptRowsAcrossThe32BitBoundaryAndPastTheLastPosition() {
        DeletionVector vector =
                DeletionVector.of(TWO_TO_32 - 2, TWO_TO_32, DeletionVector.MAX_POSITION);
        int[] kept = new int[8];

        assertThat(vector.keptRows(TWO_TO_32 - 3, 5, kept)).isEqualTo(3);
        assertThat(kept).startsWith(0, 2, 4);
        assertThat(vector.keptRows(DeletionVector.MAX_POSITION - 1, 4, kept)).isEqualTo(3);
        assertThat(kept).startsWith(0, 2, 3);
        assertThatThrownBy(() -> vector.keptRows(0, 9, kept))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot select 9 rows from position 0 into 8");
    }

    @Test
    void mergeAddsTheOtherVectorsPositionsAndLeavesItAlone() {
        Random random = new Random(7);
        TreeSet<Long> left = randomPositions(random, 500);
        TreeSet<Long> right = randomPositions(random, 500);
        DeletionVector vector = fromModel(left);
        DeletionVector other = fromModel(right);

        vector.merge(other);
        other.add(DeletionVector.MAX_POSITION);

        TreeSet<Long> union = new TreeSet<>(left);
        union.addAll(right);
        assertThat(positions(vector)).containsExactlyElementsOf(union);
        assertThat(vector.contains(DeletionVector.MAX_POSITION))
                .isEqualTo(union.contains(DeletionVector.MAX_POSITION));
        assertThat(fromModel(right)).isNotEqualTo(other);
        assertThat(vector).isEqualTo(fromModel(union)).hasSameHashCodeAs(fromModel(union));
    }

    /** Random positions, most in the first 2^32 as in real files, some far beyond. */
    static TreeSet<Long> randomPositions(Random random, int count) {
        TreeSet<Long> positions = new TreeSet<>();
        while (positions.size() < count) {
            positions.add(randomPosition(random));
        }
        return positions;
    }

    static long randomPosition(Random random) {
        switch (random.nextInt(4)) {
            case 0:
                return random.nextInt(1000);
            case 1:
                return TWO_TO_32 - 500 + random.nextInt(1000);
            case 2:
                return (long) random.nextInt(8) << 32 | (random.nextInt() & 0xFFFFFFFFL);
            default:
                return Math.floorMod(random.nextLong(), DeletionVector.MAX_POSITION + 1);
        }
    }

    private static long near(Random random, TreeSet<Long> model) {
        Long anchor = model.ceiling(randomPosition(random));
        long base = anchor == null ? model.last() : anchor;
        return Math.max(0, base + random.nextInt(3) - 1);
    }

    static DeletionVector fromModel(TreeSet<Long> model) {
        DeletionVector vector = new DeletionVector();
        model.forEach(vector::add);
        return vector;
    }

    static List<Long> positions(DeletionVector vector) {
        List<Long> positions = new ArrayList<>();
        vector.forEach(positions::add);
        return positions;
    }

    private static Long[] toObjects(long[] positions) {
        Long[] objects = new Long[positions.length];
        for (int i = 0; i < positions.length; i++) {
            objects[i] = positions[i];
        }
        return objects;
    }
}
