package dev.tarn.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class LookupStreamBenchmarksTest {

    @Test
    void everyFreshnessCommitGivesItsTierToKeysNoOtherCommitTouches() {
        List<Long> updated = new ArrayList<>();
        for (int batch = 1; batch <= LookupStreamBenchmarks.commits(); batch++) {
            assertThat(LookupStreamBenchmarks.idsOf(batch))
                    .hasSize(LookupStreamBenchmarks.KEYS_PER_COMMIT);
            updated.addAll(LookupStreamBenchmarks.idsOf(batch));
        }

        assertThat(LookupStreamBenchmarks.commits()).isEqualTo(100);
        assertThat(updated)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.rangeClosed(1, LookupStreamBenchmarks.FRESH_KEYS)
                                .boxed()
                                .toList());
    }
}
