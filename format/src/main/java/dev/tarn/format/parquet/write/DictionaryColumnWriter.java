package dev.tarn.format.parquet.write;

import java.io.IOException;
import java.util.Arrays;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;

/**
 * A column whose pages are dictionary-encoded while the dictionary pays and PLAIN after. A chunk
 * starts with the dictionary unless an earlier chunk of the file outgrew it: values that overflowed
 * one dictionary overflow the next, and the attempt costs a hash lookup per value. The first page
 * of a chunk decides, as in Parquet: its ids plus the dictionary must be smaller than its PLAIN
 * values. A dictionary that outgrows {@code pageSize} bytes later in the chunk is kept for the
 * pages that used it; the page being filled and the rest of the chunk go PLAIN. A first page whose
 * first {@value #SAMPLE} values are nearly all distinct (more than {@value #SAMPLE_DISTINCT}: keys,
 * sequence numbers, measurements, timestamps) gives up at once, without hashing the rest of the
 * page only to fail that test at its end.
 *
 * <p>A subclass appends each value with {@link #appendId(int)} while {@link #encodingIds} holds,
 * else to {@link #plain}, then calls {@link #valueAdded(int)} with {@link #pageBytes()}.
 */
abstract class DictionaryColumnWriter extends ColumnChunkWriter {

    /** Values of a chunk's first page after which a near-unique column gives up. */
    static final int SAMPLE = 4096;

    /**
     * Distinct values among the first {@link #SAMPLE} that mark a column near-unique: 97%, which a
     * column of about 100,000 or more distinct values drawn at random reaches, and one of 20,000
     * (whose dictionary would pay) does not.
     */
    static final int SAMPLE_DISTINCT = SAMPLE * 97 / 100;

    final ValueDictionary dictionary;

    /** Whether the open page's values are ids into {@link #dictionary}. */
    boolean encodingIds;

    /** Whether this file's chunks still start with the dictionary. */
    private boolean dictionaryPays;

    private int[] ids = new int[1024];
    private int idCount;
    private Encoding encoding;

    DictionaryColumnWriter(
            ColumnDescriptor column,
            int pageSize,
            int pageValueLimit,
            ValueDictionary dictionary,
            boolean useDictionary) {
        super(column, pageSize, pageValueLimit);
        this.dictionary = dictionary;
        this.dictionaryPays = useDictionary;
    }

    /** Appends the id of a value just added to {@link #dictionary}. */
    final void appendId(int id) {
        if (idCount == ids.length) {
            ids = Arrays.copyOf(ids, idCount * 2);
        }
        ids[idCount++] = id;
        if (dictionary.byteSize() > pageSize
                || (idCount == SAMPLE
                        && dictionary.size() > SAMPLE_DISTINCT
                        && !chunkUsesDictionary())) {
            fallBack();
        }
    }

    /** Appends the PLAIN encoding of the dictionary's value {@code id} to {@link #plain}. */
    abstract void appendPlain(int id);

    /** Bytes the open page's non-null values take PLAIN-encoded. */
    abstract long plainBytesOfIds(int idCount);

    /** PLAIN from here on in this file: the open page's ids become values. */
    private void fallBack() {
        encodingIds = false;
        dictionaryPays = false;
        for (int i = 0; i < idCount; i++) {
            appendPlain(ids[i]);
        }
        idCount = 0;
        if (!chunkUsesDictionary()) {
            dictionary.clear();
        }
    }

    @Override
    final void startChunk() {
        encodingIds = dictionaryPays;
    }

    @Override
    final int pageBytes() {
        // As Parquet counts: 4 bytes per dictionary id.
        return encodingIds ? idCount * Integer.BYTES : plainSize();
    }

    @Override
    final BytesInput pageValues() throws IOException {
        if (encodingIds) {
            BytesInput encoded = encodeIds(ids, idCount, dictionary.size());
            if (chunkUsesDictionary()
                    || encoded.size() + dictionary.byteSize() < plainBytesOfIds(idCount)) {
                encoding = Encoding.PLAIN_DICTIONARY;
                return encoded;
            }
            fallBack();
        }
        encoding = Encoding.PLAIN;
        return null;
    }

    @Override
    final Encoding pageEncoding() {
        return encoding;
    }

    @Override
    void resetPage() {
        idCount = 0;
    }

    @Override
    final DictionaryPage dictionaryPage() {
        return new DictionaryPage(
                dictionary.encoded().view(), dictionary.size(), Encoding.PLAIN_DICTIONARY);
    }

    @Override
    final void endChunk() {
        dictionary.clear();
    }
}
