package dev.tarn.format.parquet;

import static dev.tarn.format.parquet.ParquetTestFiles.canonical;
import static dev.tarn.format.parquet.ParquetTestFiles.path;
import static dev.tarn.format.parquet.ParquetTestFiles.read;
import static dev.tarn.format.parquet.ParquetTestFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.schema.TableConfig.FileCompression;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Every Flink SQL type survives a write and a read, nulls included, through both read paths. */
class ParquetRoundTripTest {

    @TempDir java.nio.file.Path dir;

    static final RowType FLAT = flatType();

    static final RowType NESTED = nestedType();

    private static RowType flatType() {
        return (RowType)
                DataTypes.ROW(
                                DataTypes.FIELD("bool", DataTypes.BOOLEAN()),
                                DataTypes.FIELD("tiny", DataTypes.TINYINT()),
                                DataTypes.FIELD("small", DataTypes.SMALLINT()),
                                DataTypes.FIELD("int", DataTypes.INT()),
                                DataTypes.FIELD("big", DataTypes.BIGINT()),
                                DataTypes.FIELD("float", DataTypes.FLOAT()),
                                DataTypes.FIELD("double", DataTypes.DOUBLE()),
                                DataTypes.FIELD("dec1", DataTypes.DECIMAL(1, 0)),
                                DataTypes.FIELD("dec9", DataTypes.DECIMAL(9, 2)),
                                DataTypes.FIELD("dec18", DataTypes.DECIMAL(18, 4)),
                                DataTypes.FIELD("dec19", DataTypes.DECIMAL(19, 0)),
                                DataTypes.FIELD("dec38", DataTypes.DECIMAL(38, 10)),
                                DataTypes.FIELD("char", DataTypes.CHAR(5)),
                                DataTypes.FIELD("varchar", DataTypes.VARCHAR(20)),
                                DataTypes.FIELD("string", DataTypes.STRING()),
                                DataTypes.FIELD("binary", DataTypes.BINARY(4)),
                                DataTypes.FIELD("varbinary", DataTypes.VARBINARY(20)),
                                DataTypes.FIELD("bytes", DataTypes.BYTES()),
                                DataTypes.FIELD("date", DataTypes.DATE()),
                                DataTypes.FIELD("time0", DataTypes.TIME(0)),
                                DataTypes.FIELD("time3", DataTypes.TIME(3)),
                                DataTypes.FIELD("time9", DataTypes.TIME(9)),
                                DataTypes.FIELD("ts0", DataTypes.TIMESTAMP(0)),
                                DataTypes.FIELD("ts3", DataTypes.TIMESTAMP(3)),
                                DataTypes.FIELD("ts6", DataTypes.TIMESTAMP(6)),
                                DataTypes.FIELD("ts9", DataTypes.TIMESTAMP(9)),
                                DataTypes.FIELD("ltz0", DataTypes.TIMESTAMP_LTZ(0)),
                                DataTypes.FIELD("ltz3", DataTypes.TIMESTAMP_LTZ(3)),
                                DataTypes.FIELD("ltz6", DataTypes.TIMESTAMP_LTZ(6)),
                                DataTypes.FIELD("ltz9", DataTypes.TIMESTAMP_LTZ(9)),
                                DataTypes.FIELD("not_null", DataTypes.BIGINT().notNull()))
                        .getLogicalType();
    }

    private static RowType nestedType() {
        return (RowType)
                DataTypes.ROW(
                                DataTypes.FIELD("id", DataTypes.INT()),
                                DataTypes.FIELD("ints", DataTypes.ARRAY(DataTypes.INT())),
                                DataTypes.FIELD("strings", DataTypes.ARRAY(DataTypes.STRING())),
                                DataTypes.FIELD(
                                        "matrix",
                                        DataTypes.ARRAY(DataTypes.ARRAY(DataTypes.BIGINT()))),
                                DataTypes.FIELD(
                                        "records",
                                        DataTypes.ARRAY(
                                                DataTypes.ROW(
                                                        DataTypes.FIELD("a", DataTypes.INT()),
                                                        DataTypes.FIELD(
                                                                "b", DataTypes.TIMESTAMP(9))))),
                                DataTypes.FIELD(
                                        "map", DataTypes.MAP(DataTypes.STRING(), DataTypes.INT())),
                                DataTypes.FIELD(
                                        "map_nn",
                                        DataTypes.MAP(
                                                DataTypes.INT().notNull(),
                                                DataTypes.ARRAY(DataTypes.DECIMAL(38, 10)))),
                                DataTypes.FIELD("bag", DataTypes.MULTISET(DataTypes.STRING())),
                                DataTypes.FIELD(
                                        "row",
                                        DataTypes.ROW(
                                                DataTypes.FIELD("x", DataTypes.DOUBLE()),
                                                DataTypes.FIELD(
                                                        "y",
                                                        DataTypes.ROW(
                                                                DataTypes.FIELD(
                                                                        "z", DataTypes.BYTES()),
                                                                DataTypes.FIELD(
                                                                        "w",
                                                                        DataTypes.MAP(
                                                                                DataTypes.DATE(),
                                                                                DataTypes
                                                                                        .TIMESTAMP_LTZ(
                                                                                                6))))))))
                        .getLogicalType();
    }

    @ParameterizedTest(name = "vectorized={0}")
    @ValueSource(booleans = {true, false})
    void flatTypesRoundTripWithNulls(boolean vectorized) throws Exception {
        List<RowData> rows = randomRows(FLAT, 5000, 1);
        rows.add(nullRow(FLAT));
        rows.add(extremeRow(true));
        rows.add(extremeRow(false));
        Path file = path(dir, "flat.parquet");
        write(file, FLAT, smallGroups(), rows);

        assertThat(read(file, FLAT, FLAT, null, vectorized))
                .containsExactlyElementsOf(canonical(rows, FLAT));
    }

    @Test
    void nestedTypesRoundTripWithNullsAtEveryLevel() throws Exception {
        List<RowData> rows = randomRows(NESTED, 3000, 2);
        rows.add(nullRow(NESTED));
        rows.add(nestedEdgeRow());
        Path file = path(dir, "nested.parquet");
        write(file, NESTED, smallGroups(), rows);

        assertThat(read(file, NESTED, NESTED, null, true))
                .containsExactlyElementsOf(canonical(rows, NESTED));
    }

    /**
     * Pages without nulls are read in bulk (fixed-width values and booleans straight from the page,
     * plain strings pointing into it): every flat type, pages starting inside a batch and booleans
     * inside a byte, with dictionaries and without.
     */
    @ParameterizedTest(name = "vectorized={0}, dictionary={1}")
    @CsvSource({"true,true", "true,false", "false,false"})
    void flatTypesRoundTripWithoutNulls(boolean vectorized, boolean dictionary) throws Exception {
        RandomValues random = new RandomValues(5);
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < 5003; i++) {
            GenericRowData row = new GenericRowData(FLAT.getFieldCount());
            for (int f = 0; f < FLAT.getFieldCount(); f++) {
                row.setField(f, random.value(FLAT.getTypeAt(f).copy(false)));
            }
            rows.add(row);
        }
        rows.add(extremeRow(true));
        rows.add(extremeRow(false));
        assertRoundTrip(
                "no-nulls.parquet",
                FLAT,
                new ParquetDataWriter.Options(FileCompression.ZSTD, 3, 64 * 1024, 1000, dictionary),
                rows,
                vectorized);
    }

    /** Dictionary-encoded pages without nulls are looked up in bulk, for numbers and strings. */
    @ParameterizedTest(name = "vectorized={0}")
    @ValueSource(booleans = {true, false})
    void dictionaryPagesWithoutNullsRoundTrip(boolean vectorized) throws Exception {
        RowType type =
                (RowType)
                        DataTypes.ROW(
                                        DataTypes.FIELD("i", DataTypes.INT().notNull()),
                                        DataTypes.FIELD("l", DataTypes.BIGINT()),
                                        DataTypes.FIELD("f", DataTypes.FLOAT()),
                                        DataTypes.FIELD("d", DataTypes.DOUBLE()),
                                        DataTypes.FIELD("s", DataTypes.STRING()))
                                .getLogicalType();
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < 10_007; i++) {
            int v = i * 7 % 37;
            rows.add(
                    GenericRowData.of(
                            v,
                            v * 1_000_000_007L,
                            v / 4f,
                            v / 8d,
                            StringData.fromString("value-" + v)));
        }
        assertRoundTrip(
                "dictionary.parquet",
                type,
                new ParquetDataWriter.Options(FileCompression.ZSTD, 3, 1 << 20, 1000, true),
                rows,
                vectorized);
    }

    /**
     * Repeated strings start dictionary-encoded; once the dictionary outgrows its page, Parquet
     * switches the rest of the chunk to plain pages, which may start inside a read batch.
     */
    @ParameterizedTest(name = "vectorized={0}")
    @ValueSource(booleans = {true, false})
    void dictionaryFallbackInsideABatch(boolean vectorized) throws Exception {
        RowType type = RowType.of(new VarCharType(VarCharType.MAX_LENGTH), new VarBinaryType(50));
        RandomValues random = new RandomValues(3);
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < 40_000; i++) {
            String s = i < 30_000 ? "value-" + (i % 200) : random.string(8);
            rows.add(
                    GenericRowData.of(i % 11 == 0 ? null : StringData.fromString(s), s.getBytes()));
        }
        assertRoundTrip(
                "fallback.parquet",
                type,
                new ParquetDataWriter.Options(FileCompression.NONE, 3, 1 << 26, 4096, true),
                rows,
                vectorized);
    }

    /** Version 2 pages: uncompressed levels and DELTA encodings, read by the generic decoders. */
    @ParameterizedTest(name = "vectorized={0}")
    @ValueSource(booleans = {true, false})
    void version2PagesRoundTrip(boolean vectorized) throws Exception {
        List<RowData> rows = randomRows(FLAT, 3000, 4);
        rows.add(extremeRow(true));
        Path file = path(dir, "v2.parquet");
        try (ParquetDataWriter writer =
                ParquetDataWriter.create(
                        ParquetTestFiles.IO,
                        file,
                        FLAT,
                        smallGroups(),
                        WriterVersion.PARQUET_2_0)) {
            for (RowData row : rows) {
                writer.write(row);
            }
            writer.finish();
        }

        assertThat(read(file, FLAT, FLAT, null, vectorized))
                .containsExactlyElementsOf(canonical(rows, FLAT));
    }

    /** Only the row object is reused: strings and bytes read from it survive later rows. */
    @ParameterizedTest(name = "vectorized={0}")
    @ValueSource(booleans = {true, false})
    void valuesOutliveTheirRow(boolean vectorized) throws Exception {
        RowType type = RowType.of(new VarCharType(VarCharType.MAX_LENGTH), new VarBinaryType(50));
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            rows.add(GenericRowData.of(StringData.fromString("row " + i), ("b" + i).getBytes()));
        }
        Path file = path(dir, "kept.parquet");
        write(
                file,
                type,
                new ParquetDataWriter.Options(FileCompression.NONE, 3, 1 << 20, 4096, false),
                rows);

        List<RowData> kept = new ArrayList<>();
        try (ParquetDataReader reader =
                ParquetDataReader.open(
                        ParquetTestFiles.IO,
                        file,
                        ParquetTestFiles.length(file),
                        type,
                        type,
                        null,
                        vectorized)) {
            for (RowData row = reader.next(); row != null; row = reader.next()) {
                kept.add(GenericRowData.of(row.getString(0), row.getBinary(1)));
            }
        }
        assertThat(canonical(kept, type)).containsExactlyElementsOf(canonical(rows, type));
    }

    @Test
    void typedArraysConvertToPrimitiveArrays() throws Exception {
        Path file = path(dir, "arrays.parquet");
        GenericRowData row = new GenericRowData(NESTED.getFieldCount());
        row.setField(1, new GenericArrayData(new int[] {3, 1, 2}));
        write(file, NESTED, ParquetDataWriter.Options.defaults(), List.of(row));

        try (ParquetDataReader reader =
                ParquetDataReader.open(
                        ParquetTestFiles.IO,
                        file,
                        ParquetTestFiles.length(file),
                        NESTED,
                        NESTED,
                        null)) {
            assertThat(reader.next().getArray(1).toIntArray()).containsExactly(3, 1, 2);
        }
    }

    /** Writes {@code rows} to a new file with {@code options} and reads them back unchanged. */
    private void assertRoundTrip(
            String name,
            RowType type,
            ParquetDataWriter.Options options,
            List<RowData> rows,
            boolean vectorized)
            throws Exception {
        Path file = path(dir, name);
        write(file, type, options, rows);
        assertThat(read(file, type, type, null, vectorized))
                .containsExactlyElementsOf(canonical(rows, type));
    }

    static ParquetDataWriter.Options smallGroups() {
        return new ParquetDataWriter.Options(FileCompression.ZSTD, 3, 64 * 1024, 8 * 1024, true);
    }

    static List<RowData> randomRows(RowType type, int count, long seed) {
        RandomValues random = new RandomValues(seed);
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add(random.row(type));
        }
        return rows;
    }

    static GenericRowData nullRow(RowType type) {
        GenericRowData row = new GenericRowData(type.getFieldCount());
        for (int i = 0; i < type.getFieldCount(); i++) {
            LogicalType field = type.getTypeAt(i);
            row.setField(i, field.isNullable() ? null : new RandomValues(i).value(field));
        }
        return row;
    }

    /** Years 0001 and 9999, largest and smallest decimals, empty strings and extreme numbers. */
    static GenericRowData extremeRow(boolean max) {
        LocalDateTime time =
                max
                        ? LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_999)
                        : LocalDateTime.of(1, 1, 1, 0, 0, 0, 0);
        Object[] values = {
            max,
            max ? Byte.MAX_VALUE : Byte.MIN_VALUE,
            max ? Short.MAX_VALUE : Short.MIN_VALUE,
            max ? Integer.MAX_VALUE : Integer.MIN_VALUE,
            max ? Long.MAX_VALUE : Long.MIN_VALUE,
            max ? Float.MAX_VALUE : -Float.MIN_VALUE,
            max ? Double.POSITIVE_INFINITY : Double.NaN,
            decimal(max ? "9" : "-9", 1, 0),
            decimal(max ? "9999999.99" : "-9999999.99", 9, 2),
            decimal(max ? "99999999999999.9999" : "-99999999999999.9999", 18, 4),
            decimal(max ? "9999999999999999999" : "-9999999999999999999", 19, 0),
            decimal((max ? "" : "-") + "9".repeat(28) + "." + "9".repeat(10), 38, 10),
            StringData.fromString(max ? "zzzzz" : ""),
            StringData.fromString(max ? "字".repeat(20) : ""),
            StringData.fromString(max ? "x".repeat(1000) : ""),
            max ? new byte[] {-1, -1, -1, -1} : new byte[4],
            new byte[0],
            max ? new byte[] {0, -128, 127} : new byte[0],
            max ? 2_932_896 : -719_162,
            max ? 86_399_000 : 0,
            max ? 86_399_999 : 0,
            max ? 86_399_999 : 0,
            TimestampData.fromLocalDateTime(time.withNano(0)),
            TimestampData.fromLocalDateTime(time.withNano(max ? 999_000_000 : 0)),
            TimestampData.fromLocalDateTime(time.withNano(max ? 999_999_000 : 0)),
            TimestampData.fromLocalDateTime(time),
            TimestampData.fromLocalDateTime(time.withNano(0)),
            TimestampData.fromLocalDateTime(time.withNano(max ? 999_000_000 : 0)),
            TimestampData.fromLocalDateTime(time.withNano(max ? 999_999_000 : 0)),
            TimestampData.fromLocalDateTime(time),
            max ? Long.MAX_VALUE : Long.MIN_VALUE
        };
        return GenericRowData.of(values);
    }

    private static DecimalData decimal(String value, int precision, int scale) {
        return DecimalData.fromBigDecimal(new BigDecimal(value), precision, scale);
    }

    /** Empty and all-null collections, a null map key and value, nested nulls. */
    private static GenericRowData nestedEdgeRow() {
        Map<Object, Object> map = new HashMap<>();
        map.put(null, 1);
        map.put(StringData.fromString("v-null"), null);
        Map<Object, Object> bag = new HashMap<>();
        bag.put(StringData.fromString("twice"), 2);
        bag.put(null, 1);
        return GenericRowData.of(
                7,
                new GenericArrayData(new Object[0]),
                new GenericArrayData(new Object[] {null, null}),
                new GenericArrayData(
                        new Object[] {
                            new GenericArrayData(new Object[0]),
                            null,
                            new GenericArrayData(new Object[] {null, 5L})
                        }),
                new GenericArrayData(new Object[] {GenericRowData.of(null, null), null}),
                new GenericMapData(map),
                new GenericMapData(Map.of()),
                new GenericMapData(bag),
                GenericRowData.of(null, GenericRowData.of(null, new GenericMapData(Map.of()))));
    }
}
