package org.apache.parquet;

import java.util.HashMap;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.format.converter.ParquetMetadataConverter;

/**
 * Builds {@link ParquetReadOptions} without Hadoop. Parquet's public builders load Hadoop's {@code
 * Configuration}, so Tarn calls the package-private constructor from here; the shaded jar relocates
 * this class together with Parquet, so the package stays shared.
 *
 * <p>Parquet's row-group filtering is off: Tarn skips row groups itself (to count them). With a
 * filter, Parquet's column-index filtering is on, so that a filtered read of a row group fetches
 * only the pages whose rows may match; rows of those pages are returned unfiltered.
 */
public final class TarnParquetReadOptions {

    /**
     * The largest single buffer a row group's column chunks are read into (Parquet's default is 8
     * MiB). Below a quarter of G1's smallest region (1 MiB), so that no buffer is a humongous
     * object: the collector allocates those outside the young generation and starts a concurrent
     * cycle over the whole heap when they pile up, which a scan of a few hundred megabytes of
     * column chunks did every few runs. A page that spans two buffers is copied once when
     * decompressed, as every page was before.
     */
    private static final int MAX_ALLOCATION_SIZE = 256 * 1024;

    private TarnParquetReadOptions() {}

    public static ParquetReadOptions create(CompressionCodecFactory codecs) {
        return create(codecs, null);
    }

    /** Options whose column-index filtering skips pages {@code filter} cannot match. */
    public static ParquetReadOptions create(
            CompressionCodecFactory codecs,
            org.apache.parquet.filter2.predicate.FilterPredicate filter) {
        return new ParquetReadOptions(
                false, // useSignedStringMinMax
                false, // useStatsFilter
                false, // useDictionaryFilter
                false, // useRecordFilter
                filter != null, // useColumnIndexFilter
                false, // usePageChecksumVerification
                false, // useBloomFilter
                false, // useOffHeapDecryptBuffer
                false, // useHadoopVectoredIo
                filter == null ? FilterCompat.NOOP : FilterCompat.get(filter),
                ParquetMetadataConverter.NO_FILTER,
                codecs,
                new HeapByteBufferAllocator(),
                MAX_ALLOCATION_SIZE,
                new HashMap<>(),
                null, // fileDecryptionProperties
                null, // metricsCallback
                new PlainParquetConfiguration());
    }
}
