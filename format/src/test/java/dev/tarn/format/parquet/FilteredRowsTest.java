package dev.tarn.format.parquet;

import static dev.tarn.format.parquet.ParquetTestFiles.IO;
import static dev.tarn.format.parquet.ParquetTestFiles.length;
import static dev.tarn.format.parquet.ParquetTestFiles.path;
import static dev.tarn.format.parquet.ParquetTestFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.deletion.DeletionVector;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.predicate.Predicate.Op;
import dev.tarn.format.row.BinaryRowBatch;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A columnar read asked to {@code filterRows()} returns exactly the rows for which the filter is
 * TRUE in SQL (NULL compares to nothing), for every type it evaluates, and those where a
 * floating-point comparison is ambiguous (NaN, zeros of two signs, which IEEE and a total order
 * compare differently), through {@code next()} and through transfers, with a deletion vector too; a
 * filter part it cannot evaluate (a column not read, a CHAR column) keeps rows rather than dropping
 * them; and a restored reader's {@code skip} counts the rows the filter keeps.
 */
class FilteredRowsTest {

    @TempDir static java.nio.file.Path dir;

    private static final int ROWS = 12_000;

    /** Rows decoded per batch: small, so the file has many batch boundaries. */
    private static final int BATCH = 100;

    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {
                        new BigIntType(false),
                        new BigIntType(),
                        new IntType(),
                        VarCharType.STRING_TYPE,
                        new DoubleType(),
                        new FloatType(),
                        new DecimalType(10, 2),
                        new TimestampType(3),
                        new BooleanType(),
                        new DateType(),
                        new CharType(3),
                        VarCharType.STRING_TYPE
                    },
                    new String[] {"id", "k", "i", "s", "d", "f", "dec", "ts", "b", "dt", "c", "u"});

    private static final List<RowData> WRITTEN = new ArrayList<>();
    private static Path file;

    /** Values spread so that every page spans them all: no page can be skipped by its bounds. */
    @BeforeAll
    static void writeFile() throws Exception {
        double[] specials = {0.0, -0.0, Double.NaN, 1.5, -2.25};
        for (int r = 0; r < ROWS; r++) {
            int h = (int) ((r * 7919L) % 1000);
            WRITTEN.add(
                    GenericRowData.of(
                            (long) r,
                            r % 13 == 0 ? null : (long) h - 500,
                            r % 11 == 0 ? null : h % 10,
                            r % 7 == 0 ? null : StringData.fromString("x" + (h % 50)),
                            r % 17 == 0 ? null : r % 3 == 0 ? specials[h % 5] : h / 7.0,
                            r % 19 == 0 ? null : (float) (h / 1000.0),
                            r % 23 == 0
                                    ? null
                                    : DecimalData.fromBigDecimal(BigDecimal.valueOf(h, 1), 10, 2),
                            r % 29 == 0
                                    ? null
                                    : TimestampData.fromEpochMillis(1_700_000_000_000L + h * 1000L),
                            r % 31 == 0 ? null : h % 2 == 0,
                            r % 37 == 0 ? null : 19_000 + h % 20,
                            StringData.fromString("c" + (h % 10) + " "),
                            r % 41 == 0 ? null : StringData.fromString("unique value " + r)));
        }
        file = path(dir, "rows.parquet");
        write(file, TYPE, ParquetRoundTripTest.smallGroups(), WRITTEN);
    }

    private static Predicate leaf(Op op, String name, Object... literals) {
        int field = TYPE.getFieldNames().indexOf(name);
        return new Predicate.Leaf(op, field, name, TYPE.getTypeAt(field), List.of(literals));
    }

    private static Predicate and(Predicate... children) {
        return new Predicate.And(List.of(children));
    }

    private static Predicate or(Predicate... children) {
        return new Predicate.Or(List.of(children));
    }

    /** Filters every part of which is evaluated: the rows read are exactly those it keeps. */
    private static List<Predicate> exact() {
        return List.of(
                leaf(Op.LT, "k", -490L),
                leaf(Op.GT_EQ, "k", 495L),
                leaf(Op.EQ, "k", 0L),
                leaf(Op.NOT_EQ, "k", 0L),
                leaf(Op.IN, "k", 7L, -3L, 400L),
                leaf(Op.LT_EQ, "i", 2),
                leaf(Op.NOT_EQ, "i", 5),
                leaf(Op.IN, "i", 3, 5, 7),
                leaf(Op.EQ, "s", StringData.fromString("x7")),
                leaf(Op.GT, "s", StringData.fromString("x45")),
                leaf(Op.EQ, "d", 0.0),
                leaf(Op.NOT_EQ, "d", 0.0),
                leaf(Op.LT, "d", 1.5),
                leaf(Op.GT_EQ, "d", -0.0),
                leaf(Op.IN, "d", -0.0, 1.5),
                leaf(Op.GT, "f", 0.5f),
                leaf(Op.GT_EQ, "dec", DecimalData.fromBigDecimal(new BigDecimal("90.50"), 10, 2)),
                leaf(Op.LT, "ts", TimestampData.fromEpochMillis(1_700_000_010_000L)),
                leaf(Op.EQ, "b", true),
                leaf(Op.EQ, "dt", 19_003),
                leaf(Op.IS_NULL, "s"),
                leaf(Op.IS_NOT_NULL, "d"),
                leaf(Op.IS_NULL, "i"),
                and(leaf(Op.LT, "k", 0L), or(leaf(Op.EQ, "i", 3), leaf(Op.EQ, "s", str("x7")))),
                or(leaf(Op.IS_NULL, "k"), and(leaf(Op.GT, "i", 7), leaf(Op.EQ, "b", false))));
    }

    private static StringData str(String s) {
        return StringData.fromString(s);
    }

    @Test
    void rowsReadAreExactlyThoseTheFilterKeeps() throws Exception {
        for (Predicate filter : exact()) {
            List<List<Object>> expected = rows(filter, null);
            assertThat(expected).as("%s keeps some rows and drops some", filter).isNotEmpty();
            assertThat(expected.size()).as("%s", filter).isLessThan(ROWS);
            assertThat(readRows(filter, null)).as("next() with %s", filter).isEqualTo(expected);
            assertThat(readTransferred(filter, null))
                    .as("transfers with %s", filter)
                    .isEqualTo(expected);
        }
    }

    @Test
    void withADeletionVectorTheFilterAppliesToTheRowsItKeeps() throws Exception {
        DeletionVector deleted = DeletionVector.of(0, 5, 6, 99, 100, ROWS - 1);
        for (long p = 3; p < ROWS; p += 4) {
            deleted.add(p);
        }
        for (Predicate filter : exact()) {
            List<List<Object>> expected = rows(filter, deleted);
            assertThat(readTransferred(filter, deleted))
                    .as("transfers with %s", filter)
                    .isEqualTo(expected);
        }
    }

    @Test
    void aPartItCannotEvaluateKeepsRowsInsteadOfDropping() throws Exception {
        RowType withoutK = project("id", "i", "c");
        // k is not read: its leaf counts as TRUE, the rest still filters.
        Predicate notRead = and(leaf(Op.LT, "k", 0L), leaf(Op.EQ, "i", 3));
        assertThat(readNext(withoutK, notRead, null)).isEqualTo(ids(leaf(Op.EQ, "i", 3), null));
        // A disjunction with such a part may keep any row: nothing is dropped.
        Predicate anyRow = or(leaf(Op.LT, "k", 0L), leaf(Op.EQ, "i", 3));
        assertThat(readNext(withoutK, anyRow, null)).hasSize(ROWS);
        // CHAR values are padded: no comparison of them is trusted here.
        Predicate onChar = leaf(Op.EQ, "c", str("c1"));
        assertThat(readNext(withoutK, onChar, null)).hasSize(ROWS);
    }

    /**
     * A restored reader skips the rows the filter kept, so it resumes after the last one read; also
     * with a filter Parquet's statistics cannot use (an order on booleans), where it would
     * otherwise pass whole row groups by their row counts.
     */
    @Test
    void skipCountsTheRowsTheFilterKeeps() throws Exception {
        DeletionVector deleted = DeletionVector.of(1, 2, 3, 500, 501, 9_999);
        for (Predicate filter :
                List.of(
                        and(leaf(Op.LT, "k", 0L), leaf(Op.NOT_EQ, "i", 5)),
                        leaf(Op.LT, "b", true))) {
            List<Long> kept = ids(filter, deleted);
            for (int skip : new int[] {0, 1, 97, kept.size() / 2, kept.size() - 1}) {
                try (ParquetDataReader reader = open(TYPE, filter, deleted)) {
                    assertThat(reader.skip(skip)).isEqualTo(skip);
                    assertThat(reader.next().getLong(0))
                            .as("row after %d skipped with %s", skip, filter)
                            .isEqualTo(kept.get(skip));
                }
            }
            try (ParquetDataReader reader = open(TYPE, filter, deleted)) {
                assertThat(reader.skip(ROWS)).isEqualTo(kept.size());
                assertThat(reader.next()).isNull();
            }
        }
    }

    private static RowType project(String... names) {
        List<RowType.RowField> fields = new ArrayList<>();
        for (String name : names) {
            fields.add(TYPE.getFields().get(TYPE.getFieldNames().indexOf(name)));
        }
        return new RowType(false, fields);
    }

    /** The ids of the rows not deleted for which {@code filter} is TRUE in SQL. */
    private static List<Long> ids(Predicate filter, @Nullable DeletionVector deleted) {
        return IntStream.range(0, ROWS)
                .filter(r -> deleted == null || !deleted.contains(r))
                .filter(r -> isTrue(filter, WRITTEN.get(r)))
                .mapToObj(r -> (long) r)
                .toList();
    }

    /** Those rows whole, canonical. */
    private static List<List<Object>> rows(Predicate filter, @Nullable DeletionVector deleted) {
        return ids(filter, deleted).stream()
                .map(id -> CanonicalValues.row(WRITTEN.get(id.intValue()), TYPE))
                .toList();
    }

    /**
     * SQL's WHERE: UNKNOWN (a comparison with NULL) is not TRUE; a comparison of a NaN, or of a
     * zero with a zero, is kept as the engine may answer it either way.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static boolean isTrue(Predicate p, RowData row) {
        if (p instanceof Predicate.And and) {
            return and.children().stream().allMatch(c -> isTrue(c, row));
        }
        if (p instanceof Predicate.Or or) {
            return or.children().stream().anyMatch(c -> isTrue(c, row));
        }
        Predicate.Leaf leaf = (Predicate.Leaf) p;
        Object value = RowData.createFieldGetter(leaf.type(), leaf.field()).getFieldOrNull(row);
        if (leaf.op() == Op.IS_NULL || leaf.op() == Op.IS_NOT_NULL) {
            return (value == null) == (leaf.op() == Op.IS_NULL);
        }
        if (value == null) {
            return false;
        }
        return leaf.literals().stream()
                .anyMatch(
                        literal -> {
                            if (ambiguous(value, literal)) {
                                return true;
                            }
                            int c = Integer.signum(((Comparable) value).compareTo(literal));
                            return switch (leaf.op()) {
                                case EQ, IN -> c == 0;
                                case NOT_EQ -> c != 0;
                                case LT -> c < 0;
                                case LT_EQ -> c <= 0;
                                case GT -> c > 0;
                                case GT_EQ -> c >= 0;
                                default -> throw new AssertionError(leaf);
                            };
                        });
    }

    private static boolean ambiguous(Object value, Object literal) {
        if (!(value instanceof Double || value instanceof Float)) {
            return false;
        }
        double v = ((Number) value).doubleValue();
        double l = ((Number) literal).doubleValue();
        return Double.isNaN(v) || Double.isNaN(l) || (v == 0 && l == 0);
    }

    private static ParquetDataReader open(
            RowType readType, Predicate filter, @Nullable DeletionVector deleted) throws Exception {
        return ParquetDataReader.open(IO, file, length(file), TYPE, readType, filter, BATCH)
                .withDeletions(deleted)
                .filterRows();
    }

    /** Every row read through next(), whole, canonical. */
    private static List<List<Object>> readRows(Predicate filter, @Nullable DeletionVector deleted)
            throws Exception {
        List<List<Object>> rows = new ArrayList<>();
        try (ParquetDataReader reader = open(TYPE, filter, deleted)) {
            for (RowData row = reader.next(); row != null; row = reader.next()) {
                assertThat(reader.position()).isEqualTo(row.getLong(0));
                rows.add(CanonicalValues.row(row, TYPE));
            }
        }
        return rows;
    }

    private static List<Long> readNext(
            RowType readType, Predicate filter, @Nullable DeletionVector deleted) throws Exception {
        List<Long> ids = new ArrayList<>();
        try (ParquetDataReader reader = open(readType, filter, deleted)) {
            for (RowData row = reader.next(); row != null; row = reader.next()) {
                assertThat(reader.position()).isEqualTo(row.getLong(0));
                ids.add(row.getLong(0));
            }
        }
        return ids;
    }

    /** The first row of each batch from next(), the rest transferred, as a scan reads them. */
    private static List<List<Object>> readTransferred(
            Predicate filter, @Nullable DeletionVector deleted) throws Exception {
        List<List<Object>> rows = new ArrayList<>();
        BinaryRowBatch batch = new BinaryRowBatch(64);
        BinaryRowData view = new BinaryRowData(TYPE.getFieldCount());
        try (ParquetDataReader reader = open(TYPE, filter, deleted)) {
            for (RowData row = reader.next(); row != null; row = reader.next()) {
                rows.add(CanonicalValues.row(row, TYPE));
                int buffered = reader.buffered();
                int moved = 0;
                for (int now; (now = reader.transferBuffered(batch, 64)) > 0; batch.clear()) {
                    for (int i = 0; i < now; i++) {
                        batch.pointTo(view, i);
                        rows.add(CanonicalValues.row(view, TYPE));
                    }
                    moved += now;
                }
                assertThat(moved).isEqualTo(buffered);
            }
        }
        return rows;
    }
}
