package dev.tarn.format.parquet.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.table.data.columnar.vector.LongColumnVector;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;

/**
 * Columns decoded on two threads: every column gets its values whichever thread decodes it, a
 * helper thread does decode some, and a failure on the helper reaches the reader with its message.
 */
class ColumnHalvesTest {

    private static final int COLUMNS = 6;
    private static final int BATCH = 512;
    private static final int PAGE = 1000;

    /** The threads that read a page of each column; a page's values are column * 1e9 + row. */
    private final Set<String> readers = ConcurrentHashMap.newKeySet();

    @Test
    void everyColumnHoldsItsValuesAndAHelperDecodesSome() throws IOException {
        FlatColumnReader[] columns = columns(-1);
        ColumnHalves halves = new ColumnHalves(columns);
        long row = 0;
        for (int batch = 0; batch < 400; batch++) {
            halves.readBatch(BATCH);
            for (int c = 0; c < COLUMNS; c++) {
                LongColumnVector vector = (LongColumnVector) columns[c].vector();
                for (int i = 0; i < BATCH; i++) {
                    assertThat(vector.getLong(i)).isEqualTo(c * 1_000_000_000L + row + i);
                }
            }
            row += BATCH;
        }
        assertThat(readers).anyMatch(name -> name.startsWith("tarn-column-decode-"));
        assertThat(readers).contains(Thread.currentThread().getName());
    }

    @Test
    void aFailureOnTheHelperReachesTheReader() {
        // Column 3 fails when a helper reads its page; until a helper takes it, the reader does.
        FlatColumnReader[] columns = columns(3);
        ColumnHalves halves = new ColumnHalves(columns);
        assertThatThrownBy(
                        () -> {
                            for (int batch = 0; batch < 10_000; batch++) {
                                halves.readBatch(BATCH);
                            }
                        })
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Page of column c3 unreadable on tarn-column-decode");
    }

    /** Readers of required BIGINT columns whose plain pages hold column * 1e9 + row. */
    private FlatColumnReader[] columns(int failingOnHelper) {
        FlatColumnReader[] columns = new FlatColumnReader[COLUMNS];
        for (int c = 0; c < COLUMNS; c++) {
            PrimitiveType type = Types.required(PrimitiveTypeName.INT64).named("c" + c);
            ColumnDescriptor descriptor = new ColumnDescriptor(new String[] {"c" + c}, type, 0, 0);
            columns[c] = FlatColumnReaders.of(new BigIntType(false), descriptor, BATCH);
            try {
                columns[c].startRowGroup(new Pages(c, c == failingOnHelper));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return columns;
    }

    /** Endless plain pages of one column, noting which thread reads each. */
    private final class Pages implements PageReader {
        private final int column;
        private final boolean failOnHelper;
        private long next;

        Pages(int column, boolean failOnHelper) {
            this.column = column;
            this.failOnHelper = failOnHelper;
        }

        @Override
        public DictionaryPage readDictionaryPage() {
            return null;
        }

        @Override
        public long getTotalValueCount() {
            return Long.MAX_VALUE;
        }

        @Override
        public DataPage readPage() {
            String thread = Thread.currentThread().getName();
            readers.add(thread);
            if (failOnHelper && thread.startsWith("tarn-column-decode-")) {
                throw new IllegalStateException(
                        "Page of column c" + column + " unreadable on tarn-column-decode");
            }
            ByteBuffer values = ByteBuffer.allocate(PAGE * 8).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < PAGE; i++) {
                values.putLong(column * 1_000_000_000L + next++);
            }
            return new DataPageV1(
                    BytesInput.from(values.array()),
                    PAGE,
                    PAGE * 8,
                    null,
                    Encoding.RLE,
                    Encoding.RLE,
                    Encoding.PLAIN);
        }
    }
}
