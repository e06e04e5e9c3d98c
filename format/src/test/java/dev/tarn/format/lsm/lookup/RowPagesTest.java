package dev.tarn.format.lsm.lookup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.lsm.RowBytes;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/** The pages of rows: their sizes as they grow, and every row found at its address. */
class RowPagesTest {

    /** Addresses of the rows allocated, in order. */
    private final List<Integer> addresses = new ArrayList<>();

    private final RowPages.Live live =
            new RowPages.Live() {
                @Override
                public int count() {
                    return addresses.size();
                }

                @Override
                public int address(int i) {
                    return addresses.get(i);
                }

                @Override
                public void moved(int i, int address) {
                    addresses.set(i, address);
                }
            };

    private final RowBytes bytes =
            new RowBytes(RowType.of(new BigIntType(false), new BigIntType(false)));

    private BinaryRowData row(long value) {
        return bytes.encode(GenericRowData.of(value, ~value));
    }

    @Test
    void pagesDoubleUpToTheLargestAndEveryRowIsFoundAtItsAddress() {
        List<Long> reserved = new ArrayList<>();
        RowPages pages =
                new RowPages(
                        bytes -> {
                            reserved.add(bytes);
                            return true;
                        },
                        bytes -> {});
        int rows = 700_000; // 32-byte entries: 22 MB, several pages of the largest size
        for (long i = 0; i < rows; i++) {
            int address = pages.allocate(row(i), live);
            assertThat(address).as("row %d", i).isPositive();
            addresses.add(address);
        }

        assertThat(reserved.subList(0, 6))
                .containsExactly(
                        (long) RowPages.PAGE_BYTES,
                        2L * RowPages.PAGE_BYTES,
                        4L * RowPages.PAGE_BYTES,
                        8L * RowPages.PAGE_BYTES,
                        (long) RowPages.MAX_PAGE_BYTES,
                        (long) RowPages.MAX_PAGE_BYTES);
        assertThat(reserved).allMatch(b -> b <= RowPages.MAX_PAGE_BYTES);
        BinaryRowData target = new BinaryRowData(2);
        for (int i = 0; i < rows; i++) {
            pages.rowAt(addresses.get(i), target);
            assertThat(target.getLong(0)).as("row %d", i).isEqualTo(i);
            assertThat(target.getLong(1)).as("row %d", i).isEqualTo(~(long) i);
        }
    }

    @Test
    void aBudgetThatRefusesALargerPageStillGetsOneOfTheFirstSize() {
        long budget = 2L * RowPages.PAGE_BYTES;
        long[] used = {0};
        RowPages pages =
                new RowPages(
                        bytes -> {
                            if (used[0] + bytes > budget) {
                                return false;
                            }
                            used[0] += bytes;
                            return true;
                        },
                        bytes -> used[0] -= bytes);
        long i = 0;
        for (int address = pages.allocate(row(i), live);
                address != 0;
                address = pages.allocate(row(i), live)) {
            addresses.add(address);
            i++;
        }

        assertThat(used[0])
                .as("both first-size pages of the budget, none larger")
                .isEqualTo(budget);
        assertThat(i)
                .as("entries of 32 bytes in two pages")
                .isEqualTo(2L * RowPages.PAGE_BYTES / 32);
    }
}
