package dev.tarn.format.parquet;

import static dev.tarn.format.parquet.ParquetTestFiles.IO;
import static dev.tarn.format.parquet.ParquetTestFiles.length;
import static dev.tarn.format.parquet.ParquetTestFiles.path;
import static dev.tarn.format.parquet.ParquetTestFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.predicate.Predicate.Op;
import dev.tarn.format.schema.TableConfig.FileCompression;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongPredicate;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Row groups whose statistics cannot match a filter are skipped; every matching row is still
 * returned, and filters that cannot be converted never skip anything.
 */
class ParquetFilterTest {

    @TempDir static java.nio.file.Path dir;

    private static final int ROWS = 200_000;

    private static final RowType TYPE =
            (RowType)
                    DataTypes.ROW(
                                    DataTypes.FIELD("id", DataTypes.BIGINT()),
                                    DataTypes.FIELD("name", DataTypes.STRING()),
                                    DataTypes.FIELD("ts", DataTypes.TIMESTAMP(6)),
                                    DataTypes.FIELD("small", DataTypes.SMALLINT()),
                                    DataTypes.FIELD("score", DataTypes.DOUBLE()),
                                    DataTypes.FIELD("nanos", DataTypes.TIMESTAMP(9)),
                                    DataTypes.FIELD("tags", DataTypes.ARRAY(DataTypes.INT())),
                                    DataTypes.FIELD("nothing", DataTypes.INT()))
                            .getLogicalType();

    private static Path file;

    /** Ids 0..ROWS-1 in order, so each row group covers one id range. */
    @BeforeAll
    static void writeSortedFile() throws Exception {
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            rows.add(
                    GenericRowData.of(
                            (long) i,
                            StringData.fromString(String.format("n%06d", i)),
                            TimestampData.fromEpochMillis(1_000_000L + i, 5_000),
                            (short) (i / 10),
                            i * 0.25,
                            TimestampData.fromEpochMillis(i),
                            new GenericArrayData(new int[] {i}),
                            null));
        }
        file = path(dir, "sorted.parquet");
        write(
                file,
                TYPE,
                new ParquetDataWriter.Options(FileCompression.ZSTD, 3, 64 * 1024, 8 * 1024, true),
                rows);
    }

    @Test
    void equalityReadsOneRowGroupAndFewBytes() throws Exception {
        Result all = scan(null, TYPE);
        Result one = scan(leaf(Op.EQ, 0, 123_456L), TYPE);

        assertThat(one.total).isGreaterThan(20);
        assertThat(one.skipped).isEqualTo(one.total - 1);
        assertThat(one.ids).contains(123_456L);
        assertThat(all.ids).hasSize(ROWS);
        assertThat(all.skipped).isZero();
        assertThat(one.bytesRead).isLessThan(length(file) / 20);
        assertThat(all.bytesRead).isGreaterThan(length(file) * 9 / 10);
    }

    @Test
    void everyOperatorSkipsOnlyRowGroupsWithoutMatches() throws Exception {
        check(leaf(Op.LT, 0, 1000L), id -> id < 1000, true);
        check(leaf(Op.LT_EQ, 0, 1000L), id -> id <= 1000, true);
        check(leaf(Op.GT, 0, 190_000L), id -> id > 190_000, true);
        check(leaf(Op.GT_EQ, 0, 190_000L), id -> id >= 190_000, true);
        check(leaf(Op.IN, 0, 5L, 150_000L), id -> id == 5 || id == 150_000, true);
        check(leaf(Op.NOT_EQ, 0, 5L), id -> id != 5, false);
        check(leaf(Op.EQ, 1, StringData.fromString("n100000")), id -> id == 100_000, true);
        check(
                leaf(Op.GT, 2, TimestampData.fromEpochMillis(1_000_000L + 199_000, 0)),
                id -> id >= 199_000,
                true);
        check(leaf(Op.EQ, 3, (short) 777), id -> id / 10 == 777, true);
        check(leaf(Op.LT, 4, 10.0), id -> id * 0.25 < 10.0, true);
        check(leaf(Op.IS_NULL, 0), id -> false, true);
        check(leaf(Op.IS_NOT_NULL, 7), id -> false, true);
        check(leaf(Op.IS_NULL, 7), id -> true, false);
    }

    @Test
    void andKeepsWhatItCanConvertAndOrNeedsEveryChild() throws Exception {
        Predicate range =
                new Predicate.And(List.of(leaf(Op.GT_EQ, 0, 5000L), leaf(Op.LT, 0, 6000L)));
        check(range, id -> id >= 5000 && id < 6000, true);
        Predicate either = new Predicate.Or(List.of(leaf(Op.LT, 0, 10L), leaf(Op.GT, 0, 199_990L)));
        check(either, id -> id < 10 || id > 199_990, true);

        Predicate nanos = leaf(Op.EQ, 5, TimestampData.fromEpochMillis(3));
        check(nanos, id -> id == 3, false);
        check(new Predicate.And(List.of(nanos, leaf(Op.EQ, 0, 3L))), id -> id == 3, true);
        check(new Predicate.Or(List.of(nanos, leaf(Op.EQ, 0, 3L))), id -> id == 3, false);
    }

    @Test
    void filtersThatCannotPruneKeepEverything() throws Exception {
        Predicate nested = new Predicate.Leaf(Op.IS_NULL, 6, "tags", TYPE.getTypeAt(6), List.of());
        check(nested, id -> false, false);
        Predicate unknownColumn =
                new Predicate.Leaf(
                        Op.EQ, 9, "elsewhere", DataTypes.BIGINT().getLogicalType(), List.of(1L));
        check(unknownColumn, id -> false, false);
        Predicate wrongType =
                new Predicate.Leaf(Op.EQ, 0, "id", DataTypes.INT().getLogicalType(), List.of(1));
        check(wrongType, id -> id == 1, false);
        check(leaf(Op.EQ, 4, Double.NaN), id -> false, false);
        // Literals the column cannot hold exactly: truncating them would skip matching rows.
        check(leaf(Op.LT, 3, 4_294_967_301L), id -> true, false);
        check(leaf(Op.LT, 2, TimestampData.fromEpochMillis(1_000_050L, 500)), id -> id < 50, false);
        check(leaf(Op.LT, 0, 10.5), id -> id <= 10, false);
    }

    private static Predicate.Leaf leaf(Op op, int field, Object... literals) {
        return new Predicate.Leaf(
                op,
                field,
                TYPE.getFieldNames().get(field),
                TYPE.getTypeAt(field),
                List.of(literals));
    }

    /** Scans with {@code filter}: all ids matching {@code matches} come back; skips as expected. */
    private static void check(Predicate filter, LongPredicate matches, boolean expectSkips)
            throws Exception {
        Result result = scan(filter, new RowType(List.of(TYPE.getFields().get(0))));
        Set<Long> expected = new HashSet<>();
        for (long id = 0; id < ROWS; id++) {
            if (matches.test(id)) {
                expected.add(id);
            }
        }
        expected.removeAll(new HashSet<>(result.ids));
        assertThat(expected).as("matching rows missing from %s", filter).isEmpty();
        if (expectSkips) {
            assertThat(result.skipped).as("skipped row groups of %s", filter).isPositive();
        } else {
            assertThat(result.skipped).as("skipped row groups of %s", filter).isZero();
            assertThat(result.ids).hasSize(ROWS);
        }
    }

    private record Result(List<Long> ids, long total, long skipped, long bytesRead) {}

    private static Result scan(Predicate filter, RowType readType) throws Exception {
        List<Long> ids = new ArrayList<>();
        try (ParquetDataReader reader =
                ParquetDataReader.open(IO, file, length(file), TYPE, readType, filter)) {
            for (RowData row = reader.next(); row != null; row = reader.next()) {
                ids.add(row.getLong(0));
            }
            return new Result(
                    ids, reader.rowGroupsTotal(), reader.rowGroupsSkipped(), reader.bytesRead());
        }
    }
}
