package dev.tarn.format.bucket;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.data.utils.JoinedRowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bucket hash is part of the on-disk format: these fixed values must never change, or rows of
 * one key written before and after the change would land in two buckets.
 */
class BucketHasherTest {

    /** {@code (id BIGINT, s STRING)}. */
    private static final RowType ID_S =
            RowType.of(
                    new LogicalType[] {new BigIntType(), VarCharType.STRING_TYPE},
                    new String[] {"id", "s"});

    private static GenericRowData idS(Long id, String s) {
        return GenericRowData.of(id, s == null ? null : StringData.fromString(s));
    }

    @ParameterizedTest(name = "BIGINT {0}: hash {1}, bucket {2} of 4, {3} of 16")
    @CsvSource({"1, 1969036716, 0, 12", "2, -2090921747, 1, 13", "42, 126886128, 0, 0"})
    void bigintKeysHashToFixedBuckets(long key, int hash, int of4, int of16) {
        BucketHasher hasher = new BucketHasher(ID_S, new int[] {0});
        GenericRowData row = idS(key, "ignored");
        assertThat(hasher.hash(row)).isEqualTo(hash);
        assertThat(hasher.bucket(row, 4)).isEqualTo(of4);
        assertThat(hasher.bucket(row, 16)).isEqualTo(of16);
    }

    @Test
    void stringCompositeAndNullKeysHashToFixedBuckets() {
        BucketHasher byString = new BucketHasher(ID_S, new int[] {1});
        assertThat(byString.hash(idS(1L, "abc"))).isEqualTo(-813941866);
        assertThat(byString.bucket(idS(1L, "abc"), 4)).isEqualTo(2);
        assertThat(byString.bucket(idS(1L, "abc"), 16)).isEqualTo(6);

        BucketHasher composite = new BucketHasher(ID_S, new int[] {0, 1});
        assertThat(composite.hash(idS(1L, "abc"))).isEqualTo(1049266036);
        assertThat(composite.bucket(idS(1L, "abc"), 4)).isZero();
        assertThat(composite.bucket(idS(1L, "abc"), 16)).isEqualTo(4);

        assertThat(composite.hash(idS(null, null))).isEqualTo(-2046531678);
        assertThat(composite.bucket(idS(null, null), 16)).isEqualTo(2);
    }

    static Stream<Arguments> otherTypes() {
        return Stream.of(
                Arguments.of(
                        new DecimalType(10, 2),
                        DecimalData.fromBigDecimal(new BigDecimal("12.34"), 10, 2),
                        1736028404),
                Arguments.of(
                        new TimestampType(3),
                        TimestampData.fromEpochMillis(1_700_000_000_123L),
                        -225194697),
                Arguments.of(new DateType(), 19_700, 985700587),
                Arguments.of(new BooleanType(), true, -642384840),
                Arguments.of(new DoubleType(), 1.5d, -988611785),
                Arguments.of(new IntType(), 42, 1033853771));
    }

    @ParameterizedTest(name = "{0} {1}: hash {2}")
    @MethodSource("otherTypes")
    void otherTypesHashToFixedValues(LogicalType type, Object value, int hash) {
        BucketHasher hasher =
                new BucketHasher(
                        RowType.of(new LogicalType[] {type}, new String[] {"k"}), new int[] {0});
        assertThat(hasher.hash(GenericRowData.of(value))).isEqualTo(hash);
    }

    @Test
    void aStringHashesTheSameWhereverItsBytesAre() {
        for (String text : List.of("", "a", "ab", "abc", "abcd", "abcde", "ünïcödé ключ 键")) {
            byte[] utf8 = bytes(text);
            byte[] padded = new byte[utf8.length + 7];
            System.arraycopy(utf8, 0, padded, 3, utf8.length);
            MemorySegment segment = MemorySegmentFactory.wrap(padded);
            assertThat(BucketHasher.murmur3(segment, 3, utf8.length))
                    .as("'%s' at an offset of a segment", text)
                    .isEqualTo(BucketHasher.murmur3(utf8));
            BucketHasher byString = new BucketHasher(ID_S, new int[] {1});
            GenericRowData fromJava = GenericRowData.of(1L, StringData.fromString(text));
            GenericRowData fromBytes =
                    GenericRowData.of(
                            1L,
                            BinaryStringData.fromAddress(
                                    new MemorySegment[] {segment}, 3, utf8.length));
            assertThat(byString.hash(fromBytes)).isEqualTo(byString.hash(fromJava));
        }
    }

    @Test
    void murmur3MatchesTheReferenceImplementation() {
        // Published MurmurHash3_x86_32 values, seed 0.
        assertThat(BucketHasher.murmur3(bytes(""))).isZero();
        assertThat(BucketHasher.murmur3(bytes("test"))).isEqualTo(0xba6bd213);
        assertThat(BucketHasher.murmur3(bytes("Hello, world!"))).isEqualTo(0xc0363e43);
        assertThat(BucketHasher.murmur3(bytes("The quick brown fox jumps over the lazy dog")))
                .isEqualTo(0x2e4ff723);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void equalKeysLandInOneBucketWhateverTheRowAroundThem() {
        BucketHasher byId = new BucketHasher(ID_S, new int[] {0});
        // The same key at another position of another row type.
        RowType sId =
                RowType.of(
                        new LogicalType[] {VarCharType.STRING_TYPE, new BigIntType()},
                        new String[] {"s", "id"});
        BucketHasher byIdSecond = new BucketHasher(sId, new int[] {1});
        BucketHasher composite = new BucketHasher(ID_S, new int[] {0, 1});
        for (long id = -500; id < 500; id++) {
            int bucket = byId.bucket(idS(id, "x"), 8);
            assertThat(byId.bucket(idS(id, "other value"), 8)).isEqualTo(bucket);
            assertThat(byIdSecond.bucket(GenericRowData.of(StringData.fromString("y"), id), 8))
                    .isEqualTo(bucket);
            // Another RowData implementation holding the same values.
            RowData joined =
                    new JoinedRowData(
                            GenericRowData.of(id),
                            GenericRowData.of(StringData.fromString("s" + id)));
            assertThat(composite.hash(joined)).isEqualTo(composite.hash(idS(id, "s" + id)));
        }
    }

    @Test
    void sequentialIdsSpreadEvenlyOverBuckets() {
        BucketHasher hasher = new BucketHasher(ID_S, new int[] {0});
        int[] counts = new int[4];
        for (long id = 0; id < 10_000; id++) {
            counts[hasher.bucket(idS(id, null), 4)]++;
        }
        for (int bucket = 0; bucket < 4; bucket++) {
            assertThat(counts[bucket]).as("rows in bucket %d", bucket).isBetween(2_000, 3_000);
        }
    }

    @Test
    void negativeHashesStillGiveValidBuckets() {
        BucketHasher hasher = new BucketHasher(ID_S, new int[] {0});
        assertThat(hasher.hash(idS(2L, null))).isNegative();
        for (long id = 0; id < 1_000; id++) {
            assertThat(hasher.bucket(idS(id, null), 3)).isBetween(0, 2);
        }
    }
}
