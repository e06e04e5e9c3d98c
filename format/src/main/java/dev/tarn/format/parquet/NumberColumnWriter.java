package dev.tarn.format.parquet;

import java.io.IOException;
import java.util.Arrays;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Pages of an INT32, INT64, FLOAT or DOUBLE column. Values are kept as their bit patterns (a float
 * or double by its canonical bits, as PLAIN encodes it), dictionary-encoded while the dictionary
 * pays and stays under {@code pageSize} bytes, PLAIN after. Once a chunk falls back to PLAIN, the
 * following chunks of the file start in PLAIN too: values that overflowed one dictionary overflow
 * the next, and the attempt costs a hash lookup per value.
 *
 * <p>Min and max follow Parquet's order: signed for integers, {@link Double#compare} for floating
 * point (so -0.0 &lt; 0.0 and NaN is the largest).
 */
final class NumberColumnWriter extends ColumnChunkWriter {

    private final int width;
    private final boolean floating;
    private final PageBytes plain = new PageBytes();
    private final ValueDictionary dictionary;

    /** Whether this file's chunks still try the dictionary. */
    private boolean dictionaryPays;

    /** Whether the open page is dictionary-encoded (its values are in {@link #ids}). */
    private boolean encodingIds;

    private int[] ids = new int[1024];
    private int idCount;

    private boolean hasValue;
    private long minBits;
    private long maxBits;
    private double minDouble;
    private double maxDouble;
    private Encoding encoding;

    NumberColumnWriter(
            ColumnDescriptor column, int pageSize, int pageValueLimit, boolean dictionary) {
        super(column, pageSize, pageValueLimit);
        PrimitiveTypeName physical = type.getPrimitiveTypeName();
        this.width =
                switch (physical) {
                    case INT32, FLOAT -> Integer.BYTES;
                    case INT64, DOUBLE -> Long.BYTES;
                    default ->
                            throw new IllegalArgumentException(
                                    "Column " + column + " is not a number column: " + physical);
                };
        this.floating = physical == PrimitiveTypeName.FLOAT || physical == PrimitiveTypeName.DOUBLE;
        this.dictionary = ValueDictionary.ofWidth(width);
        this.dictionaryPays = dictionary;
    }

    @Override
    public void addInteger(int value) {
        if (!hasValue) {
            hasValue = true;
            minBits = value;
            maxBits = value;
        } else if (value < minBits) {
            minBits = value;
        } else if (value > maxBits) {
            maxBits = value;
        }
        append(value);
    }

    @Override
    public void addLong(long value) {
        if (!hasValue) {
            hasValue = true;
            minBits = value;
            maxBits = value;
        } else if (value < minBits) {
            minBits = value;
        } else if (value > maxBits) {
            maxBits = value;
        }
        append(value);
    }

    @Override
    public void addFloat(float value) {
        track(value);
        append(Float.floatToIntBits(value));
    }

    @Override
    public void addDouble(double value) {
        track(value);
        append(Double.doubleToLongBits(value));
    }

    private void track(double value) {
        if (!hasValue) {
            hasValue = true;
            minDouble = value;
            maxDouble = value;
        } else if (Double.compare(value, minDouble) < 0) {
            minDouble = value;
        } else if (Double.compare(value, maxDouble) > 0) {
            maxDouble = value;
        }
    }

    private void append(long bits) {
        if (encodingIds) {
            if (idCount == ids.length) {
                ids = Arrays.copyOf(ids, idCount * 2);
            }
            ids[idCount++] = dictionary.idOf(bits);
            if (dictionary.byteSize() > pageSize) {
                fallBack();
            }
        } else {
            plain.putBits(bits, width);
        }
        valueAdded(pageBytes());
    }

    /** PLAIN from here on: the open page's ids become values. */
    private void fallBack() {
        encodingIds = false;
        dictionaryPays = false;
        for (int i = 0; i < idCount; i++) {
            plain.putBits(dictionary.bits(ids[i]), width);
        }
        idCount = 0;
        if (!chunkUsesDictionary()) {
            dictionary.clear();
        }
    }

    @Override
    void startChunk() {
        encodingIds = dictionaryPays;
    }

    @Override
    int pageBytes() {
        // As Parquet counts: 4 bytes per dictionary id.
        return encodingIds ? idCount * Integer.BYTES : plain.size();
    }

    @Override
    BytesInput pageValues() throws IOException {
        if (encodingIds) {
            BytesInput encoded = encodeIds(ids, idCount, dictionary.size());
            // The first page decides, as in Parquet: ids and dictionary must beat PLAIN.
            if (chunkUsesDictionary()
                    || encoded.size() + dictionary.byteSize() < (long) idCount * width) {
                encoding = Encoding.PLAIN_DICTIONARY;
                return encoded;
            }
            fallBack();
        }
        encoding = Encoding.PLAIN;
        return plain.view();
    }

    @Override
    Encoding pageEncoding() {
        return encoding;
    }

    @Override
    void addMinMax(Statistics<?> statistics) {
        switch (type.getPrimitiveTypeName()) {
            case INT32 -> {
                statistics.updateStats((int) minBits);
                statistics.updateStats((int) maxBits);
            }
            case INT64 -> {
                statistics.updateStats(minBits);
                statistics.updateStats(maxBits);
            }
            case FLOAT -> {
                statistics.updateStats((float) minDouble);
                statistics.updateStats((float) maxDouble);
            }
            default -> {
                statistics.updateStats(minDouble);
                statistics.updateStats(maxDouble);
            }
        }
    }

    @Override
    void resetPage() {
        plain.reset();
        idCount = 0;
        hasValue = false;
    }

    @Override
    DictionaryPage dictionaryPage() {
        return new DictionaryPage(
                dictionary.encoded().view(), dictionary.size(), Encoding.PLAIN_DICTIONARY);
    }

    @Override
    void endChunk() {
        dictionary.clear();
    }
}
