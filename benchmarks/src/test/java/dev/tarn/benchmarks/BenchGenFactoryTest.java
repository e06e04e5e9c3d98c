package dev.tarn.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.util.NumberSequenceIterator;
import org.junit.jupiter.api.Test;

class BenchGenFactoryTest {

    @Test
    void subtasksGenerateEveryRowOnceAndEachKeyInOrder() {
        long rows = 42;
        long keys = 10;
        int parallelism = 2;
        BenchGenFactory.Rows generator =
                new BenchGenFactory.Rows(rows, keys).interleave(parallelism);
        List<Long> generated = new ArrayList<>();
        Map<Long, List<Long>> rowsOfKey = new HashMap<>();
        Map<Long, Integer> splitOfKey = new HashMap<>();
        NumberSequenceIterator[] splits =
                new NumberSequenceIterator(0, rows - 1).split(parallelism);
        for (int k = 0; k < splits.length; k++) {
            for (long index = splits[k].getCurrent(); index <= splits[k].getTo(); index++) {
                long row = generator.rowOf(index);
                long id = generator.id(row);
                generated.add(row);
                rowsOfKey.computeIfAbsent(id, x -> new ArrayList<>()).add(row);
                Integer earlierSplit = splitOfKey.putIfAbsent(id, k);
                assertThat(earlierSplit).as("split of key %d", id).isIn(null, k);
            }
        }
        assertThat(generated).containsExactlyInAnyOrderElementsOf(range(0, rows));
        assertThat(rowsOfKey).hasSize((int) keys);
        rowsOfKey.values().forEach(written -> assertThat(written).isSorted());
    }

    @Test
    void theLastWriteOfEveryKeyIsAmongTheLastKeysRows() {
        BenchGenFactory.Rows generator = new BenchGenFactory.Rows(42, 10);
        Map<Long, Long> last = new HashMap<>();
        for (long i = 0; i < 42; i++) {
            last.put(generator.id(i), i);
        }
        assertThat(last.values()).containsExactlyInAnyOrderElementsOf(range(32, 42));
    }

    @Test
    void withoutKeysOrAtParallelismOneIndicesAreRows() {
        assertThat(new BenchGenFactory.Rows(42, 0).interleave(2).rowOf(30)).isEqualTo(30);
        assertThat(new BenchGenFactory.Rows(42, 10).interleave(1).rowOf(30)).isEqualTo(30);
    }

    @Test
    void keysThatAreNoMultipleOfTheParallelismAreRefused() {
        assertThatThrownBy(() -> new BenchGenFactory.Rows(42, 9).interleave(2))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(
                        "bench-datagen cannot spread 9 keys over 2 subtasks: the writes of a key"
                                + " must all come from one subtask, so the keys must be a multiple"
                                + " of the parallelism");
    }

    private static List<Long> range(long from, long to) {
        List<Long> values = new ArrayList<>();
        for (long i = from; i < to; i++) {
            values.add(i);
        }
        return values;
    }

    @Test
    void aNegativeRateIsRefusedNamingTheOptionAndTheValue() {
        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        env.executeSql(
                "CREATE TEMPORARY TABLE g (id BIGINT) WITH ('connector' = 'bench-datagen',"
                        + " 'rows' = '10', 'rows-per-second' = '-5')");

        assertThatThrownBy(() -> env.explainSql("SELECT * FROM g"))
                .rootCause()
                .hasMessage(
                        "Invalid bench-datagen option 'rows-per-second' = -5: expected 0"
                                + " (unlimited) or a positive rate");
    }
}
