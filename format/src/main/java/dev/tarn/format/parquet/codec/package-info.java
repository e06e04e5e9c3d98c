/**
 * Page compression without Hadoop: {@link dev.tarn.format.parquet.codec.TarnCodecFactory} is the
 * one codec factory the writers and the reader hand to Parquet; it serves ZSTD (native where
 * zstd-jni loads, pure Java elsewhere), LZ4_RAW, GZIP and UNCOMPRESSED, and names the ones it has
 * when asked for another.
 *
 * <p>Invariants: every codec reads what any other implementation of its format wrote (standard
 * frames), and nothing here is thread-safe: each writer and each reader owns its factory and
 * releases it (and the native memory a zstd codec holds) on every path.
 */
package dev.tarn.format.parquet.codec;
