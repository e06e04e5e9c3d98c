package dev.tarn.format.parquet.read;

import org.apache.flink.table.types.logical.RowType;

/**
 * How the columns read from a file written under one schema version become the columns of another
 * (the table's field-id mapping): per returned column of {@code readType}, the index of the file
 * column of {@code fileType} it reads, whose type it has or widens, or -1 to return {@code
 * constants[i]} in every row (Flink internal data: a default, or null).
 */
public record ColumnMapping(
        RowType fileType, RowType readType, int[] sources, Object[] constants) {}
