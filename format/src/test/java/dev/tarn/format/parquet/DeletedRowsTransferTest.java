package dev.tarn.format.parquet;

import static dev.tarn.format.parquet.ParquetTestFiles.IO;
import static dev.tarn.format.parquet.ParquetTestFiles.length;
import static dev.tarn.format.parquet.ParquetTestFiles.path;
import static dev.tarn.format.parquet.ParquetTestFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.deletion.DeletionVector;
import dev.tarn.format.lsm.RowCopier;
import dev.tarn.format.row.BinaryRowBatch;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A columnar read of a file with a deletion vector still moves its rows column by column: the rows
 * a batch keeps (those the vector does not hold) are transferred, and {@code buffered()} counts
 * exactly them, with deleted positions inside a batch, on both sides of a batch boundary, a whole
 * batch and across row groups; a null or empty vector deletes nothing.
 */
class DeletedRowsTransferTest {

    @TempDir static java.nio.file.Path dir;

    private static final int ROWS = 20_000;

    /** Rows decoded per batch: small, so the file has many batch boundaries. */
    private static final int BATCH = 100;

    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {
                        new BigIntType(false), VarCharType.STRING_TYPE, new DoubleType()
                    },
                    new String[] {"id", "s", "d"});

    private static final List<RowData> ROWS_WRITTEN = new ArrayList<>();
    private static Path file;

    @BeforeAll
    static void writeFile() throws Exception {
        for (int i = 0; i < ROWS; i++) {
            String s = i % 9 == 0 ? null : (i % 2 == 0 ? "s" + i : "a longer string " + i);
            ROWS_WRITTEN.add(
                    GenericRowData.of(
                            (long) i,
                            s == null ? null : StringData.fromString(s),
                            i % 5 == 0 ? null : i / 3.0));
        }
        file = path(dir, "rows.parquet");
        // Row groups of 64 KiB: several of them, so deletions fall into more than one.
        write(file, TYPE, ParquetRoundTripTest.smallGroups(), ROWS_WRITTEN);
    }

    /** Positions 0, 5-6 (inside a batch), 99-100 (around a boundary), 200-299, every 10th + 3. */
    private static DeletionVector vector() {
        DeletionVector v = DeletionVector.of(0, 5, 6, 99, 100, ROWS - 1);
        for (long p = 200; p < 300; p++) {
            v.add(p);
        }
        for (long p = 3; p < ROWS; p += 10) {
            v.add(p);
        }
        return v;
    }

    @Test
    void rowsOfAFileWithAVectorAreTransferredColumnByColumn() throws Exception {
        DeletionVector deleted = vector();
        Read read = read(deleted);

        List<RowData> expected = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            if (!deleted.contains(i)) {
                expected.add(ROWS_WRITTEN.get(i));
            }
        }
        assertSameRows(read.rows, expected);
        assertThat(read.transferred).isGreaterThan(expected.size() * 8L / 10);
    }

    @Test
    void aNullOrEmptyVectorDeletesNothingAndTransfersAsWithout() throws Exception {
        for (DeletionVector vector : java.util.Arrays.asList(null, new DeletionVector())) {
            Read read = read(vector);
            assertSameRows(read.rows, ROWS_WRITTEN);
            assertThat(read.transferred).isGreaterThan(ROWS * 8L / 10);
        }
    }

    @Test
    void rowByRowReadSkipsTheSameRowsAndBufferedCountsOnlyKeptRows() throws Exception {
        DeletionVector deleted = vector();
        RowCopier copier = new RowCopier(TYPE);
        List<BinaryRowData> rows = new ArrayList<>();
        try (ParquetDataReader reader = open(deleted)) {
            RowData row = reader.next();
            while (row != null) {
                // The rows buffered come without decoding: exactly that many, then a new batch.
                int buffered = reader.buffered();
                rows.add(copier.copy(row));
                for (int i = 0; i < buffered; i++) {
                    row = reader.next();
                    assertThat(row).as("buffered row %d of %d", i, buffered).isNotNull();
                    assertThat(reader.position()).isEqualTo(row.getLong(0));
                    rows.add(copier.copy(row));
                }
                row = reader.next();
                if (row != null) {
                    assertThat(reader.position()).isEqualTo(row.getLong(0));
                }
            }
        }
        List<RowData> expected = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            if (!deleted.contains(i)) {
                expected.add(ROWS_WRITTEN.get(i));
            }
        }
        assertSameRows(rows, expected);
    }

    /**
     * A restored reader seeks by rows returned: past the deleted rows too, and past whole row
     * groups without reading them.
     */
    @Test
    void skipCountsReturnedRowsAndPassesWholeRowGroupsUnread() throws Exception {
        DeletionVector deleted = vector();
        List<Long> live = new ArrayList<>();
        for (long i = 0; i < ROWS; i++) {
            if (!deleted.contains(i)) {
                live.add(i);
            }
        }
        for (int skip : new int[] {0, 1, 97, 5_000, live.size() - 3}) {
            try (ParquetDataReader reader = open(deleted)) {
                assertThat(reader.skip(skip)).isEqualTo(skip);
                RowData row = reader.next();
                assertThat(row.getLong(0))
                        .as("row after %d skipped", skip)
                        .isEqualTo(live.get(skip));
                if (skip > live.size() / 2) {
                    assertThat(reader.bytesRead()).isLessThan(length(file) / 2);
                }
            }
        }
        try (ParquetDataReader reader = open(deleted)) {
            assertThat(reader.skip(ROWS)).isEqualTo(live.size());
            assertThat(reader.next()).isNull();
        }
    }

    /**
     * A decoded string is a view of its page's bytes, not a copy: one kept from every row, without
     * copying the row, still reads as written after the whole file (every later batch, page and row
     * group) has been decoded.
     */
    @Test
    void stringsKeptFromEarlierRowsStayRightAfterLaterBatchesAndPages() throws Exception {
        List<StringData> kept = new ArrayList<>();
        List<Long> ids = new ArrayList<>();
        try (ParquetDataReader reader = open(null)) {
            for (RowData row = reader.next(); row != null; row = reader.next()) {
                ids.add(row.getLong(0));
                kept.add(row.isNullAt(1) ? null : row.getString(1));
            }
        }
        assertThat(kept).hasSize(ROWS);
        for (int i = 0; i < ROWS; i++) {
            assertThat(kept.get(i))
                    .as("string of row %d", ids.get(i))
                    .isEqualTo(ROWS_WRITTEN.get(i).getString(1));
        }
    }

    private static ParquetDataReader open(@Nullable DeletionVector deleted) throws Exception {
        return ParquetDataReader.open(IO, file, length(file), TYPE, TYPE, null, BATCH)
                .withDeletions(deleted);
    }

    private record Read(List<BinaryRowData> rows, long transferred) {}

    /**
     * Every row: the first of each batch from next(), the rest moved in steps of 30; checks that
     * what buffered() announced is what moves, and that positions follow the rows.
     */
    private static Read read(@Nullable DeletionVector deleted) throws Exception {
        RowCopier copier = new RowCopier(TYPE);
        List<BinaryRowData> rows = new ArrayList<>();
        BinaryRowBatch batch = new BinaryRowBatch(70);
        BinaryRowData view = new BinaryRowData(TYPE.getFieldCount());
        long transferred = 0;
        try (ParquetDataReader reader = open(deleted)) {
            for (RowData row = reader.next(); row != null; row = reader.next()) {
                assertThat(reader.position()).isEqualTo(row.getLong(0));
                rows.add(copier.copy(row));
                int buffered = reader.buffered();
                int movedNow = 0;
                int moved;
                while ((moved = reader.transferBuffered(batch, 30)) > 0) {
                    movedNow += moved;
                    for (int i = batch.size() - moved; i < batch.size(); i++) {
                        batch.pointTo(view, i);
                        rows.add(copier.copy(view));
                    }
                    assertThat(reader.position()).isEqualTo(view.getLong(0));
                    if (batch.remaining() < 30) {
                        batch.clear();
                    }
                }
                assertThat(movedNow)
                        .as("rows moved after id %s", row.getLong(0))
                        .isEqualTo(buffered);
                transferred += movedNow;
            }
        }
        return new Read(rows, transferred);
    }

    private static void assertSameRows(List<BinaryRowData> read, List<RowData> expected) {
        RowCopier copier = new RowCopier(TYPE);
        assertThat(read).hasSize(expected.size());
        for (int i = 0; i < expected.size(); i++) {
            assertThat(read.get(i)).as("row %d", i).isEqualTo(copier.copy(expected.get(i)));
        }
    }
}
