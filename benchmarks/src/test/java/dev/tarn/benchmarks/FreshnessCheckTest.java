package dev.tarn.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

class FreshnessCheckTest {

    private static Arrivals batches(int lastBatch) {
        Arrivals arrivals =
                new Arrivals((lastBatch + 1L) * FreshnessBenchmark.ROWS_PER_COMMIT, true);
        for (int b = 0; b <= lastBatch; b++) {
            for (int n = 0; n < FreshnessBenchmark.ROWS_PER_COMMIT; n++) {
                arrivals.record(RowKind.INSERT, b);
            }
        }
        return arrivals;
    }

    @Test
    void everyBatchOnceIsRight() throws Exception {
        Arrivals arrivals = batches(3);

        FreshnessBenchmark.check(arrivals, 3, true);
        assertThat(arrivals.awaitTarget(0)).isTrue();
        assertThat(arrivals.firstArrival(0)).isLessThanOrEqualTo(arrivals.firstArrival(3));
    }

    @Test
    void aRowDeliveredTwiceIsWrong() {
        Arrivals arrivals = batches(3);
        arrivals.record(RowKind.INSERT, 2);

        assertThatThrownBy(() -> FreshnessBenchmark.check(arrivals, 3, false))
                .isInstanceOf(WrongResultException.class)
                .hasMessage(
                        "batch 2 brought 11 rows to the sink, expected 10 of each batch 0 to 3");
    }

    @Test
    void aMissingBatchIsWrongOnlyOnceAllShouldHaveArrived() {
        Arrivals arrivals = batches(2);

        FreshnessBenchmark.check(arrivals, 3, false);
        assertThatThrownBy(() -> FreshnessBenchmark.check(arrivals, 3, true))
                .isInstanceOf(WrongResultException.class)
                .hasMessage("3 of batches 0 to 3 arrived: [0, 1, 2]");
    }

    @Test
    void anAppendTableDeliversOnlyInsertions() {
        Arrivals arrivals = new Arrivals(10, true);
        for (int n = 0; n < 9; n++) {
            arrivals.record(RowKind.INSERT, 0);
        }
        arrivals.record(RowKind.UPDATE_AFTER, 0);

        assertThatThrownBy(() -> FreshnessBenchmark.check(arrivals, 0, true))
                .isInstanceOf(WrongResultException.class)
                .hasMessage(
                        "1 of the 10 rows of an append table arrived as other changes than"
                                + " insertions");
    }

    @Test
    void percentilesOfOneHundredCommits() {
        List<Double> seconds = new ArrayList<>();
        for (int i = 100; i >= 1; i--) {
            seconds.add(i / 10.0);
        }

        assertThat(FreshnessBenchmark.Freshness.of(seconds))
                .isEqualTo(new FreshnessBenchmark.Freshness(5.1, 9.9, 10.0));
    }
}
