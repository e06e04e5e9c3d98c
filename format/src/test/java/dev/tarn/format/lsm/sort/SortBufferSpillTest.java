package dev.tarn.format.lsm.sort;

import static dev.tarn.format.lsm.TestRows.describeAll;
import static dev.tarn.format.lsm.sort.SortBufferTest.KEYS;
import static dev.tarn.format.lsm.sort.SortBufferTest.TYPE;
import static dev.tarn.format.lsm.sort.SortBufferTest.expectedOrder;
import static dev.tarn.format.lsm.sort.SortBufferTest.randomChanges;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.lsm.KeyValue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SortBufferSpillTest {

    @TempDir Path spillDirectory;

    @Test
    void spilledRunsIterateInTheSameOrderAsOneInMemorySort() throws IOException {
        List<KeyValue> changes = randomChanges(11, 4000, 300);
        try (SortBuffer buffer = SortBuffer.spillable(KEYS, 16 * 1024, spillDirectory, 1000)) {
            for (KeyValue kv : changes) {
                assertThat(buffer.put(kv.sequence(), kv.kind(), kv.row())).isTrue();
            }
            assertThat(buffer.spillFileCount()).isGreaterThan(5);
            assertThat(files()).hasSize(buffer.spillFileCount());
            assertThat(buffer.size()).isEqualTo(4000);
            assertThat(buffer.memoryUsed()).isLessThanOrEqualTo(16 * 1024);
            assertThat(describeAll(buffer.iterator(), TYPE)).isEqualTo(expectedOrder(changes));
            assertThat(describeAll(buffer.iterator(), TYPE))
                    .as("iterating again")
                    .isEqualTo(expectedOrder(changes));
        }
    }

    @Test
    void clearAndCloseDeleteTheSpillFiles() throws IOException {
        List<KeyValue> changes = randomChanges(12, 2000, 100);
        try (SortBuffer buffer = SortBuffer.spillable(KEYS, 8 * 1024, spillDirectory, 1000)) {
            for (KeyValue kv : changes.subList(0, 1000)) {
                buffer.put(kv.sequence(), kv.kind(), kv.row());
            }
            assertThat(files()).isNotEmpty();
            Iterator<KeyValue> halfRead = buffer.iterator();
            halfRead.next();
            buffer.clear();
            assertThat(files()).isEmpty();
            assertThat(buffer.size()).isZero();
            assertThat(buffer.spillFileCount()).isZero();

            for (KeyValue kv : changes.subList(1000, 2000)) {
                buffer.put(kv.sequence(), kv.kind(), kv.row());
            }
            assertThat(describeAll(buffer.iterator(), TYPE))
                    .isEqualTo(expectedOrder(changes.subList(1000, 2000)));
            assertThat(files()).isNotEmpty();
        }
        assertThat(files()).as("after close").isEmpty();
    }

    @Test
    void refusesPutsOnceTheMaximumNumberOfSpillFilesIsReached() throws IOException {
        List<KeyValue> changes = randomChanges(13, 5000, 100);
        try (SortBuffer buffer = SortBuffer.spillable(KEYS, 4 * 1024, spillDirectory, 2)) {
            int accepted = 0;
            while (buffer.put(
                    changes.get(accepted).sequence(),
                    changes.get(accepted).kind(),
                    changes.get(accepted).row())) {
                accepted++;
            }
            assertThat(buffer.spillFileCount()).isEqualTo(2);
            assertThat(files()).hasSize(2);
            assertThat(buffer.size()).isEqualTo(accepted);
            assertThat(describeAll(buffer.iterator(), TYPE))
                    .isEqualTo(expectedOrder(changes.subList(0, accepted)));
        }
    }

    @Test
    void anInMemoryBufferNeverSpills() throws IOException {
        List<KeyValue> changes = randomChanges(14, 5000, 100);
        try (SortBuffer buffer = SortBuffer.inMemory(KEYS, 4 * 1024)) {
            int accepted = 0;
            while (buffer.put(
                    changes.get(accepted).sequence(),
                    changes.get(accepted).kind(),
                    changes.get(accepted).row())) {
                accepted++;
            }
            assertThat(accepted).isPositive();
            assertThat(buffer.spillFileCount()).isZero();
        }
        assertThat(files()).isEmpty();
    }

    private List<Path> files() throws IOException {
        try (Stream<Path> files = Files.list(spillDirectory)) {
            return files.toList();
        }
    }
}
