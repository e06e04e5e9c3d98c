package dev.tarn.format.bucket;

import java.nio.charset.StandardCharsets;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Hashes a row's bucket-key columns to a bucket. The hash is part of the format (SPEC.md,
 * "Bucketing"): it must never change, or rows of one key would land in two buckets. It depends only
 * on the SQL values, never on Java's or Flink's {@code hashCode}. Public for the lookup join's
 * in-memory hash index, which hashes its index keys the same way.
 */
public final class BucketHasher {

    private final int[] keyIndexes;
    private final LogicalType[] keyTypes;
    private final RowData.FieldGetter[] getters;

    public BucketHasher(RowType rowType, int[] keyIndexes) {
        this.keyIndexes = keyIndexes.clone();
        this.keyTypes = new LogicalType[keyIndexes.length];
        this.getters = new RowData.FieldGetter[keyIndexes.length];
        for (int i = 0; i < keyIndexes.length; i++) {
            keyTypes[i] = rowType.getTypeAt(keyIndexes[i]);
            getters[i] = RowData.createFieldGetter(keyTypes[i], keyIndexes[i]);
        }
    }

    /** The bucket of a row among {@code totalBuckets}: the one its writer puts it in. */
    public int bucket(RowData row, int totalBuckets) {
        return Math.floorMod(hash(row), totalBuckets);
    }

    public int hash(RowData row) {
        int h = 42;
        for (int i = 0; i < keyIndexes.length; i++) {
            h = h * 31 + valueHash(row, i);
        }
        return fmix32(h);
    }

    private int valueHash(RowData row, int i) {
        int pos = keyIndexes[i];
        if (row.isNullAt(pos)) {
            return 0;
        }
        return switch (keyTypes[i].getTypeRoot()) {
            case BOOLEAN -> row.getBoolean(pos) ? 1231 : 1237;
            case TINYINT -> fmix32(row.getByte(pos));
            case SMALLINT -> fmix32(row.getShort(pos));
            case INTEGER, DATE, TIME_WITHOUT_TIME_ZONE, INTERVAL_YEAR_MONTH ->
                    fmix32(row.getInt(pos));
            case BIGINT, INTERVAL_DAY_TIME -> fmix64(row.getLong(pos));
            case FLOAT -> fmix32(Float.floatToIntBits(row.getFloat(pos)));
            case DOUBLE -> fmix64(Double.doubleToLongBits(row.getDouble(pos)));
            case CHAR, VARCHAR -> stringHash(row.getString(pos));
            case BINARY, VARBINARY -> murmur3(row.getBinary(pos));
            case DECIMAL -> {
                DecimalData d = (DecimalData) getters[i].getFieldOrNull(row);
                yield murmur3(d.toUnscaledBytes());
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> {
                TimestampData t = (TimestampData) getters[i].getFieldOrNull(row);
                yield fmix64(t.getMillisecond()) * 31 + t.getNanoOfMillisecond();
            }
            default ->
                    murmur3(
                            String.valueOf(getters[i].getFieldOrNull(row))
                                    .getBytes(StandardCharsets.UTF_8));
        };
    }

    /**
     * MurmurHash3 of a string's UTF-8 bytes, read where the string keeps them: a binary string in
     * one memory segment (as rows read from files or the network hold them) is not copied.
     */
    private static int stringHash(StringData value) {
        if (value instanceof BinaryStringData binary) {
            MemorySegment[] segments = binary.getSegments();
            if (segments.length == 1) {
                return murmur3(segments[0], binary.getOffset(), binary.getSizeInBytes());
            }
        }
        return murmur3(value.toBytes());
    }

    /** MurmurHash3 x86 32-bit of {@code length} bytes of {@code segment} from {@code offset}. */
    static int murmur3(MemorySegment segment, int offset, int length) {
        int h = 0;
        int n = length & ~3;
        for (int i = 0; i < n; i += 4) {
            int k =
                    (segment.get(offset + i) & 0xFF)
                            | (segment.get(offset + i + 1) & 0xFF) << 8
                            | (segment.get(offset + i + 2) & 0xFF) << 16
                            | (segment.get(offset + i + 3) & 0xFF) << 24;
            h = mixH(h, mixK(k));
            h = Integer.rotateLeft(h, 13) * 5 + 0xe6546b64;
        }
        int k = 0;
        switch (length & 3) {
            case 3:
                k ^= (segment.get(offset + n + 2) & 0xFF) << 16;
            // fall through
            case 2:
                k ^= (segment.get(offset + n + 1) & 0xFF) << 8;
            // fall through
            case 1:
                k ^= segment.get(offset + n) & 0xFF;
                h ^= mixK(k);
            // fall through
            default:
        }
        return fmix32(h ^ length);
    }

    /** MurmurHash3's 32-bit finalizer. */
    static int fmix32(int h) {
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }

    static int fmix64(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return (int) (k ^ (k >>> 32));
    }

    /** MurmurHash3 x86 32-bit of {@code bytes}, seed 0. */
    static int murmur3(byte[] bytes) {
        return murmur3(MemorySegmentFactory.wrap(bytes), 0, bytes.length);
    }

    private static int mixK(int k) {
        k *= 0xcc9e2d51;
        k = Integer.rotateLeft(k, 15);
        return k * 0x1b873593;
    }

    private static int mixH(int h, int k) {
        return h ^ k;
    }
}
