package dev.tarn.format.parquet.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Ids in order of first appearance, through collisions and growth, against a map. */
class ValueDictionaryTest {

    @Test
    void fixedWidthValuesGetDenseIdsInOrderOfFirstAppearance() {
        for (int width : new int[] {Integer.BYTES, Long.BYTES}) {
            ValueDictionary dictionary = ValueDictionary.ofWidth(width);
            Map<Long, Integer> expected = new HashMap<>();
            List<Long> order = new ArrayList<>();
            Random random = new Random(width);
            for (int i = 0; i < 20_000; i++) {
                // Few distinct values, multiples of large powers of two (bad for weak hashes),
                // negative ones, and the extremes.
                long value =
                        switch (i % 4) {
                            case 0 -> (long) random.nextInt(3000) << 20;
                            case 1 -> -random.nextInt(500);
                            case 2 -> i % 8 == 2 ? Integer.MIN_VALUE : Integer.MAX_VALUE;
                            default -> random.nextInt(100);
                        };
                long bits = width == Integer.BYTES ? (int) value : value;
                int id = dictionary.idOf(bits);
                Integer known = expected.putIfAbsent(bits, expected.size());
                if (known == null) {
                    order.add(bits);
                }
                assertThat(id).isEqualTo(known == null ? expected.size() - 1 : known);
            }
            assertThat(dictionary.size()).isEqualTo(order.size());
            assertThat(dictionary.byteSize()).isEqualTo(order.size() * width);
            for (int id = 0; id < order.size(); id++) {
                assertThat(dictionary.bits(id)).isEqualTo(order.get(id));
            }
            dictionary.clear();
            assertThat(dictionary.size()).isZero();
            assertThat(dictionary.idOf(order.get(5))).isZero();
        }
    }

    @Test
    void byteStringsAreComparedByContentAndStoredPlain() {
        ValueDictionary dictionary = ValueDictionary.ofByteStrings();
        Map<String, Integer> expected = new HashMap<>();
        byte[] buffer = new byte[64];
        Random random = new Random(3);
        for (int i = 0; i < 20_000; i++) {
            String value = i % 3 == 0 ? "" : "v" + random.nextInt(4000) + "é".repeat(i % 5);
            byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
            // The value sits at an offset in a reused buffer, as page values do.
            int offset = i % 7;
            System.arraycopy(utf8, 0, buffer, offset, utf8.length);
            int id = dictionary.idOf(buffer, offset, utf8.length);
            Integer known = expected.putIfAbsent(value, expected.size());
            assertThat(id).isEqualTo(known == null ? expected.size() - 1 : known);
        }
        assertThat(dictionary.size()).isEqualTo(expected.size());
        // Each entry is PLAIN: a 4-byte little-endian length, then the bytes.
        PageBytes plain = new PageBytes();
        expected.forEach(
                (value, id) -> {
                    plain.reset();
                    dictionary.copyByteString(id, plain);
                    byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
                    assertThat(PageBytes.getInt(plain.array(), 0)).isEqualTo(utf8.length);
                    assertThat(new String(plain.array(), 4, utf8.length, StandardCharsets.UTF_8))
                            .isEqualTo(value);
                });
        assertThat(dictionary.byteSize())
                .isEqualTo(
                        expected.keySet().stream()
                                .mapToInt(v -> 4 + v.getBytes(StandardCharsets.UTF_8).length)
                                .sum());
    }
}
