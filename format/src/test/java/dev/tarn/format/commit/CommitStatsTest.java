package dev.tarn.format.commit;

import static dev.tarn.format.TestTables.ID_V;
import static dev.tarn.format.TestTables.append;
import static dev.tarn.format.TestTables.row;
import static dev.tarn.format.TestTables.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.TestTables;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.write.CommitMessage;
import dev.tarn.format.write.TableWrite;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a commit call reports it published: appended files and rows, the files a compaction adds and
 * deletes, and nothing for a commit found published already.
 */
class CommitStatsTest {

    @TempDir java.nio.file.Path dir;

    private Table table() {
        return TestTables.create(
                FileIO.flinkFileSystems(),
                new Path(dir.toUri()),
                ID_V,
                List.of(),
                Map.of("bucket", "1", "bucket-key", "id"));
    }

    @Test
    void anAppendCountsItsFilesAndRows() {
        Table table = table();
        List<CommitMessage> messages = write(table, List.of(row(1L, "a"), row(2L, "b")));

        CommitStats stats = TestTables.commit(table, "u", CommitRequest.of(1, messages)).stats();

        assertThat(stats.files()).isEqualTo(new CommitStats.Files(1, 0, 1));
        assertThat(stats.records()).isEqualTo(new CommitStats.Records(2, 0));
        assertThat(stats.partitionsWritten()).isEqualTo(1);
        assertThat(stats.bucketsWritten()).isEqualTo(1);
        assertThat(stats.attempts()).isEqualTo(1);
    }

    @Test
    void aCompactionAddsAndDeletesButAppendsNothing() throws Exception {
        Table table = table();
        append(table, 1, List.of(row(1L, "a")));
        append(table, 2, List.of(row(2L, "b")));
        List<CommitMessage> compacted;
        try (TableWrite write = table.newWrite()) {
            write.compactFully(Partition.EMPTY, 0);
            compacted = write.prepareCommit();
        }

        CommitStats stats =
                TestTables.commit(table, "user", CommitRequest.of(3, compacted)).stats();

        assertThat(stats.files()).isEqualTo(new CommitStats.Files(1, 2, 0));
        assertThat(stats.records()).isEqualTo(new CommitStats.Records(0, 0));
        assertThat(stats.bucketsWritten()).isEqualTo(1);
    }

    @Test
    void aCommitFoundPublishedCountsNothing() {
        Table table = table();
        List<CommitMessage> messages = write(table, List.of(row(1L, "a")));
        TestTables.commit(table, "u", CommitRequest.of(1, messages));

        TableCommit.Result again = TestTables.commit(table, "u", CommitRequest.of(1, messages));

        assertThat(again.alreadyCommitted()).isTrue();
        assertThat(again.stats().files()).isEqualTo(new CommitStats.Files(0, 0, 0));
        assertThat(again.stats().attempts()).isZero();
    }
}
