package dev.tarn.format.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.TableRead;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.write.CommitMessage;
import dev.tarn.format.write.TableWrite;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Full compaction in its three steps, as a job runs them: plan by partition, compact units, publish
 * once; publishing again (a restarted committer) changes nothing, and a compaction whose inputs
 * another compaction replaced first is dropped without losing a row.
 */
class FullCompactionTest {

    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {new BigIntType(), VarCharType.STRING_TYPE},
                    new String[] {"v", "dt"});

    @TempDir java.nio.file.Path dir;
    private Table table;

    @BeforeEach
    void create() throws Exception {
        table =
                Table.create(
                        FileIO.flinkFileSystems(),
                        new Path(dir.toUri()),
                        "db.events",
                        TableSchema.create(TYPE, List.of("dt"), List.of(), Map.of(), null));
        for (long i = 0; i < 3; i++) {
            try (TableWrite write = table.newWrite()) {
                write.write(GenericRowData.of(i, StringData.fromString("a")));
                write.write(GenericRowData.of(10 + i, StringData.fromString("b")));
                TestTables.commit(table, "writer", CommitRequest.of(i, write.prepareCommit()));
            }
        }
    }

    private List<CommitMessage> compact(FullCompaction.Plan plan) throws Exception {
        List<CommitMessage> messages = new ArrayList<>();
        try (FullCompaction.Compactor compactor =
                new FullCompaction.Compactor(TableInternals.context(table))) {
            for (FullCompaction.Unit unit : plan.units()) {
                messages.addAll(compactor.compact(unit));
            }
        }
        return messages;
    }

    private List<Long> values() throws Exception {
        List<Long> values = new ArrayList<>();
        for (Split split : table.newScan().plan().splits()) {
            try (TableRead.SplitReader reader = table.newRead().open(split)) {
                for (RowData r = reader.next(); r != null; r = reader.next()) {
                    values.add(r.getLong(0));
                }
            }
        }
        values.sort(null);
        return values;
    }

    private long dataFiles() throws Exception {
        try (var files = Files.walk(dir)) {
            return files.filter(f -> f.getFileName().toString().startsWith("data-")).count();
        }
    }

    @Test
    void plansTheSelectedPartitionsAndPublishesOnceEvenWhenAskedTwice() throws Exception {
        FullCompaction.Plan plan =
                FullCompaction.plan(
                                TableInternals.context(table), p -> p.values().get(0).equals("a"))
                        .orElseThrow();
        assertThat(plan.buckets()).isEqualTo(1);
        assertThat(plan.units())
                .singleElement()
                .extracting(FullCompaction.Unit::files)
                .isEqualTo(3);
        List<CommitMessage> messages = compact(plan);

        FullCompaction.Result first =
                FullCompaction.publish(TableInternals.context(table), plan, messages);
        assertThat(first.summary())
                .isEqualTo(
                        "Compacted 1 bucket of table db.events into snapshot 4 (3 files into 1)");
        long files = dataFiles();
        FullCompaction.Result again =
                FullCompaction.publish(TableInternals.context(table), plan, messages);
        assertThat(again.snapshotId()).isEqualTo(first.snapshotId());
        assertThat(TableInternals.context(table).snapshotManager().latestId()).hasValue(4);
        assertThat(dataFiles()).as("a second publish deletes nothing").isEqualTo(files);
        assertThat(values()).containsExactly(0L, 1L, 2L, 10L, 11L, 12L);
    }

    @Test
    void aCompactionWhoseInputsWereReplacedMeanwhileIsDroppedAndLosesNoRow() throws Exception {
        FullCompaction.Plan late =
                FullCompaction.plan(TableInternals.context(table), p -> true).orElseThrow();
        List<CommitMessage> lateMessages = compact(late);
        FullCompaction.Plan early =
                FullCompaction.plan(TableInternals.context(table), p -> true).orElseThrow();
        FullCompaction.publish(TableInternals.context(table), early, compact(early));

        FullCompaction.Result result =
                FullCompaction.publish(TableInternals.context(table), late, lateMessages);
        String gone = " is no longer in the table (another commit compacted or overwrote it)";
        assertThat(result.summary())
                .startsWith(
                        "Compacted no bucket of table db.events: writers changed the 2 buckets it"
                                + " compacted while it ran (data file data-")
                .contains(" of bucket 0 of partition [a]" + gone + "; data file data-")
                .endsWith(
                        " of bucket 0 of partition [b]"
                                + gone
                                + "); the table is unchanged, call compact again");
        for (CommitMessage m : lateMessages) {
            for (DataFile f : m.newFiles()) {
                assertThat(
                                table.io()
                                        .exists(
                                                new Path(
                                                        table.bucketPath(m.partition(), m.bucket()),
                                                        f.fileName())))
                        .as("output %s of the dropped compaction", f.fileName())
                        .isFalse();
            }
        }
        Snapshot latest = TableInternals.context(table).snapshotReader().latest().orElseThrow();
        assertThat(latest.id()).isEqualTo(4);
        assertThat(values()).containsExactly(0L, 1L, 2L, 10L, 11L, 12L);
    }
}
