package dev.tarn.format.lsm.sort;

import static dev.tarn.format.lsm.TestRows.describe;
import static dev.tarn.format.lsm.TestRows.describeAll;
import static dev.tarn.format.lsm.TestRows.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.lsm.KeyComparator;
import dev.tarn.format.lsm.KeyValue;
import dev.tarn.format.lsm.RowCopier;
import dev.tarn.format.lsm.RowCopierTest;
import dev.tarn.format.lsm.TestRows;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

class SortBufferTest {

    static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {
                        new VarCharType(false, 50),
                        new BigIntType(),
                        new DecimalType(10, 2),
                        new TimestampType(6),
                        RowType.of(new IntType(), new VarCharType(30))
                    },
                    new String[] {"k", "v", "amount", "at", "nested"});

    static final KeyComparator KEYS = new KeyComparator(TYPE, new int[] {0});

    /** A change with a key among {@code keys} strings, some short, some long. */
    static KeyValue randomChange(Random random, long sequence, int keys) {
        int key = random.nextInt(keys);
        String k = key % 3 == 0 ? "k" + key : "a longer key number " + key;
        RowKind kind = RowKind.values()[random.nextInt(4)];
        GenericRowData row =
                row(
                        k,
                        random.nextBoolean() ? null : random.nextLong(),
                        DecimalData.fromBigDecimal(BigDecimal.valueOf(random.nextInt(), 2), 10, 2),
                        TimestampData.fromEpochMillis(random.nextInt(), random.nextInt(1_000_000)),
                        GenericRowData.of(key, StringData.fromString("nested " + sequence)));
        return new KeyValue(sequence, kind, row);
    }

    /** Changes with distinct sequences in shuffled order. */
    static List<KeyValue> randomChanges(long seed, int count, int keys) {
        Random random = new Random(seed);
        List<KeyValue> changes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            changes.add(randomChange(random, i, keys));
        }
        Collections.shuffle(changes, random);
        return changes;
    }

    static List<List<Object>> expectedOrder(List<KeyValue> changes) {
        List<KeyValue> sorted = new ArrayList<>(changes);
        sorted.sort(
                Comparator.<KeyValue>comparingInt(a -> 0)
                        .thenComparing((a, b) -> KEYS.compare(a.row(), b.row()))
                        .thenComparingLong(KeyValue::sequence));
        List<List<Object>> result = new ArrayList<>();
        for (KeyValue kv : sorted) {
            result.add(describe(kv, TYPE));
        }
        return result;
    }

    @Test
    void iteratesAllChangesInKeyThenSequenceOrder() {
        List<KeyValue> changes = randomChanges(1, 3000, 200);
        try (SortBuffer buffer = SortBuffer.inMemory(KEYS, 8 << 20)) {
            for (KeyValue kv : changes) {
                assertThat(buffer.put(kv.sequence(), kv.kind(), kv.row())).isTrue();
            }
            assertThat(buffer.size()).isEqualTo(3000);
            assertThat(describeAll(buffer.iterator(), TYPE)).isEqualTo(expectedOrder(changes));
            assertThat(describeAll(buffer.iterator(), TYPE))
                    .as("iterating again")
                    .isEqualTo(expectedOrder(changes));
        }
    }

    @Test
    void keepsEqualKeyAndSequenceInInsertionOrder() {
        try (SortBuffer buffer = SortBuffer.inMemory(KEYS, 1 << 20)) {
            for (long v = 0; v < 40; v++) {
                buffer.put(7, RowKind.INSERT, row("same", v, null, null, null));
            }
            List<Object> values = new ArrayList<>();
            buffer.iterator().forEachRemaining(kv -> values.add(kv.row().getLong(1)));
            assertThat(values)
                    .isSortedAccordingTo(Comparator.comparingLong(o -> (Long) o))
                    .hasSize(40);
        }
    }

    @Test
    void fillsUpToItsCapacityThenRefusesUntilCleared() {
        long capacity = 16 * 1024;
        List<KeyValue> changes = randomChanges(2, 10_000, 1000);
        try (SortBuffer buffer = SortBuffer.inMemory(KEYS, capacity)) {
            int accepted = 0;
            while (buffer.put(
                    changes.get(accepted).sequence(),
                    changes.get(accepted).kind(),
                    changes.get(accepted).row())) {
                accepted++;
                assertThat(buffer.memoryUsed()).isLessThanOrEqualTo(capacity);
            }
            assertThat(accepted).isBetween(50, 500);
            assertThat(buffer.memoryUsed()).isGreaterThan(capacity / 2);
            assertThat(buffer.size()).isEqualTo(accepted);
            assertThat(describeAll(buffer.iterator(), TYPE))
                    .isEqualTo(expectedOrder(changes.subList(0, accepted)));

            buffer.clear();
            assertThat(buffer.size()).isZero();
            assertThat(buffer.memoryUsed()).isZero();
            assertThat(buffer.iterator().hasNext()).isFalse();
            KeyValue next = changes.get(accepted);
            assertThat(buffer.put(next.sequence(), next.kind(), next.row())).isTrue();
            assertThat(describeAll(buffer.iterator(), TYPE)).containsExactly(describe(next, TYPE));
        }
    }

    @Test
    void roundTripsEveryTypeThroughTheBinaryForm() {
        RowType type = RowCopierTest.ALL_TYPES;
        KeyComparator keys = new KeyComparator(type, new int[] {3});
        List<GenericRowData> rows = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            rows.add(RowCopierTest.allTypesRow(i));
        }
        List<GenericRowData> shuffled = new ArrayList<>(rows);
        Collections.shuffle(shuffled, new Random(3));
        try (SortBuffer buffer = SortBuffer.inMemory(keys, 1 << 20)) {
            for (GenericRowData row : shuffled) {
                buffer.put(row.getInt(3), RowKind.UPDATE_AFTER, row);
            }
            Iterator<KeyValue> iterator = buffer.iterator();
            for (GenericRowData expected : rows) {
                KeyValue kv = iterator.next();
                assertThat(kv.kind()).isEqualTo(RowKind.UPDATE_AFTER);
                assertThat(kv.sequence()).isEqualTo(expected.getInt(3));
                assertThat(TestRows.values(kv.row(), type))
                        .isEqualTo(TestRows.values(expected, type));
            }
            assertThat(iterator.hasNext()).isFalse();
        }
    }

    @Test
    void acceptsBinaryRowsAndStoresTheGivenKind() {
        RowCopier copier = new RowCopier(TYPE);
        try (SortBuffer buffer = SortBuffer.inMemory(KEYS, 1 << 20)) {
            buffer.put(2, RowKind.DELETE, copier.copy(row("b", 1L, null, null, null)));
            buffer.put(1, RowKind.INSERT, copier.copy(row("a", 2L, null, null, null)));
            assertThat(describeAll(buffer.iterator(), TYPE))
                    .containsExactly(
                            Arrays.asList(1L, "+I", "a", 2L, null, null, null),
                            Arrays.asList(2L, "-D", "b", 1L, null, null, null));
        }
    }

    @Test
    void refusesARowLargerThanTheWholeBuffer() {
        try (SortBuffer buffer = SortBuffer.inMemory(KEYS, 2048)) {
            assertThatThrownBy(
                            () ->
                                    buffer.put(
                                            1,
                                            RowKind.INSERT,
                                            row(
                                                    "k",
                                                    1L,
                                                    null,
                                                    null,
                                                    GenericRowData.of(
                                                            1,
                                                            StringData.fromString(
                                                                    "x".repeat(4000))))))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("does not fit in an empty sort buffer of 2048 bytes");
        }
        assertThatThrownBy(() -> SortBuffer.inMemory(KEYS, 100))
                .hasMessageContaining("capacity (write-buffer-size) of 100 bytes");
    }

    @Test
    void putAllocatesNothingOnceThePagesExist() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        RowType flat = RowType.of(new BigIntType(false), new IntType(), new VarCharType(20));
        int rows = 50_000;
        Long[] keys = new Long[rows];
        StringData[] strings = new StringData[16];
        for (int i = 0; i < rows; i++) {
            keys[i] = (long) (i * 7919 % rows);
        }
        for (int i = 0; i < strings.length; i++) {
            strings[i] = StringData.fromString("value number " + i);
        }
        GenericRowData reused = new GenericRowData(3);
        try (SortBuffer buffer =
                SortBuffer.inMemory(new KeyComparator(flat, new int[] {0}), 4 << 20)) {
            long allocated = 0;
            // Round 0 allocates pages and index, later rounds reuse them (and are compiled).
            for (int round = 0; round < 3; round++) {
                buffer.clear();
                long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
                for (int i = 0; i < rows; i++) {
                    reused.setField(0, keys[i]);
                    reused.setField(2, strings[i & 15]);
                    buffer.put(i, RowKind.INSERT, reused);
                }
                allocated =
                        threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
            }
            assertThat(allocated / rows).as("bytes allocated per put").isZero();
        }
    }

    @Test
    void sortsManyScrambledBigintKeysOfWideRowsInKeyThenSequenceOrder() {
        RowType eightColumns =
                RowType.of(
                        new BigIntType(false),
                        new IntType(),
                        new BigIntType(),
                        new DoubleType(),
                        new VarCharType(20),
                        new VarCharType(100),
                        new DecimalType(10, 2),
                        new TimestampType(3));
        int rows = 100_000;
        // Keys below 2^21 and sequences below 2^20: (key, sequence) packs into one long in order.
        long[] expected = new long[rows];
        GenericRowData row = new GenericRowData(8);
        StringData comment = StringData.fromString("a comment column that is a bit longer");
        try (SortBuffer buffer =
                SortBuffer.inMemory(new KeyComparator(eightColumns, new int[] {0}), 64 << 20)) {
            for (int i = 0; i < rows; i++) {
                long key = (i * 2_654_435_761L) % 1_250_000;
                expected[i] = key << 20 | i;
                row.setField(0, key);
                row.setField(1, i);
                row.setField(2, (long) i * 31);
                row.setField(3, i * 0.5);
                row.setField(4, StringData.fromString("name-" + (i & 1023)));
                row.setField(5, comment);
                row.setField(6, DecimalData.fromBigDecimal(BigDecimal.valueOf(i * 101L, 2), 10, 2));
                row.setField(7, TimestampData.fromEpochMillis(1_700_000_000_000L + i));
                assertThat(buffer.put(i, RowKind.INSERT, row)).as("put %d", i).isTrue();
            }
            Arrays.sort(expected);
            long[] actual = new long[rows];
            int n = 0;
            for (Iterator<KeyValue> it = buffer.iterator(); it.hasNext(); ) {
                KeyValue kv = it.next();
                assertThat(n).as("rows returned").isLessThan(rows);
                actual[n++] = kv.row().getLong(0) << 20 | kv.sequence();
            }
            assertThat(n).as("rows returned").isEqualTo(rows);
            assertThat(Arrays.mismatch(actual, expected))
                    .as("first position out of (key, sequence) order, -1 if none")
                    .isEqualTo(-1);
        }
    }
}
