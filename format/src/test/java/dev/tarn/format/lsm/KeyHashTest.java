package dev.tarn.format.lsm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/**
 * The key hash of {@link KeyValueSchema.LastKey}, which the lookup index probes by: keys that are
 * close numbers, the keys of most tables, must not collide, or every lookup compares many keys.
 */
class KeyHashTest {

    private static final int KEYS = 200_000;

    @Test
    void consecutiveNumberKeysHashApartInFullAndInTheLowBits() {
        KeyValueSchema.LastKey key = schema(DataTypes.BIGINT().notNull()).newLastKey();
        Set<Integer> hashes = new HashSet<>();
        int[] slots = new int[1 << 18]; // a table of 2^18 slots, as the index has for 200,000 keys
        for (long id = 0; id < KEYS; id++) {
            key.set(GenericRowData.of(id, 0));
            int h = key.hash();
            hashes.add(h);
            slots[h & (slots.length - 1)]++;
        }
        // A polynomial of base 31 over single bytes (the hash before) fails this.
        assertThat(hashes).as("distinct hashes of %d keys", KEYS).hasSizeGreaterThan(KEYS - 10);
        assertThat(maxOf(slots)).as("keys in the fullest slot").isLessThanOrEqualTo(12);
    }

    @Test
    void stringKeysOfOneLengthHashApart() {
        KeyValueSchema.LastKey key = schema(DataTypes.STRING().notNull()).newLastKey();
        Set<Integer> hashes = new HashSet<>();
        for (int i = 0; i < KEYS; i++) {
            key.set(GenericRowData.of(StringData.fromString(String.format("user-%08d", i)), 0));
            hashes.add(key.hash());
        }
        assertThat(hashes).as("distinct hashes of %d keys", KEYS).hasSizeGreaterThan(KEYS - 10);
    }

    @Test
    void equalKeysHashAlike() {
        KeyValueSchema.LastKey a = schema(DataTypes.STRING().notNull()).newLastKey();
        KeyValueSchema.LastKey b = schema(DataTypes.STRING().notNull()).newLastKey();
        a.set(GenericRowData.of(StringData.fromString("a key longer than seven bytes"), 1));
        b.set(GenericRowData.of(StringData.fromString("a key longer than seven bytes"), 2));
        assertThat(a.hash()).isEqualTo(b.hash());
    }

    /** A table {@code (k, v INT)} keyed by {@code k}. */
    private static KeyValueSchema schema(org.apache.flink.table.types.DataType keyType) {
        RowType type =
                (RowType)
                        DataTypes.ROW(
                                        DataTypes.FIELD("k", keyType),
                                        DataTypes.FIELD("v", DataTypes.INT()))
                                .getLogicalType();
        return new KeyValueSchema(type, new int[] {0});
    }

    private static int maxOf(int[] counts) {
        int max = 0;
        for (int c : counts) {
            max = Math.max(max, c);
        }
        return max;
    }
}
