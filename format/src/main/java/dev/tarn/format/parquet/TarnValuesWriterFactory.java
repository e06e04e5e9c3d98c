package dev.tarn.format.parquet;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.values.RequiresFallback;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.factory.DefaultValuesWriterFactory;
import org.apache.parquet.column.values.factory.ValuesWriterFactory;
import org.apache.parquet.column.values.fallback.FallbackValuesWriter;
import org.apache.parquet.column.values.plain.PlainValuesWriter;

/**
 * Parquet's choice of encodings, with each {@link PlainValuesWriter} it picks (the plain writer of
 * a column, or the one a dictionary falls back to) replaced by a {@link HeapPlainValuesWriter},
 * which writes the same bytes faster. Every other writer (dictionaries, booleans, fixed-length
 * arrays, the delta encodings of v2 pages) is Parquet's own.
 */
final class TarnValuesWriterFactory implements ValuesWriterFactory {

    private final DefaultValuesWriterFactory parquet = new DefaultValuesWriterFactory();
    private int initialSlabSize;

    @Override
    public void initialize(ParquetProperties properties) {
        parquet.initialize(properties);
        initialSlabSize = properties.getInitialSlabSize();
    }

    @Override
    public ValuesWriter newValuesWriter(ColumnDescriptor column) {
        ValuesWriter writer = parquet.newValuesWriter(column);
        if (writer instanceof PlainValuesWriter) {
            writer.close();
            return plain();
        }
        if (writer instanceof FallbackValuesWriter<?, ?> fallback
                && fallback.fallBackWriter instanceof PlainValuesWriter) {
            fallback.fallBackWriter.close();
            return withPlainFallback(fallback);
        }
        return writer;
    }

    private <I extends ValuesWriter & RequiresFallback> ValuesWriter withPlainFallback(
            FallbackValuesWriter<I, ?> fallback) {
        return FallbackValuesWriter.of(fallback.initialWriter, plain());
    }

    private ValuesWriter plain() {
        return new HeapPlainValuesWriter(initialSlabSize);
    }
}
