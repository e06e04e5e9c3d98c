package dev.tarn.connector.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.TableMetadata;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.TableRead;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.write.CommitMessage;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the writer hands on at a checkpoint barrier is prepared, never published: the files exist,
 * yet no snapshot references them (and no compaction input is deleted) until the committer commits
 * that checkpoint, which Flink does only once the checkpoint is complete.
 */
class TarnSinkWriterTest {

    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {new BigIntType(false), new BigIntType()},
                    new String[] {"k", "v"});

    @TempDir File dir;

    private final CommitUser user = new CommitUser("job", System.currentTimeMillis());

    private Table table() {
        return Table.create(
                FileIO.flinkFileSystems(),
                new Path(dir.toURI()),
                "db.t",
                TableSchema.create(
                        TYPE,
                        List.of(),
                        List.of("k"),
                        Map.of("bucket", "2", "num-sorted-run.compaction-trigger", "2"),
                        null));
    }

    /** Writes version {@code version} of keys 0 to 99 and passes a checkpoint barrier. */
    private static TarnCommittable checkpoint(TarnSinkWriter writer, long id, long version)
            throws IOException {
        for (long k = 0; k < 100; k++) {
            GenericRowData row = GenericRowData.of(k, version);
            row.setRowKind(RowKind.UPDATE_AFTER);
            writer.write(row, NO_CONTEXT);
        }
        writer.flush(false);
        Collection<TarnCommittable> prepared = writer.prepareCommit();
        assertThat(prepared).hasSize(1);
        TarnCommittable c = prepared.iterator().next();
        return new TarnCommittable(c.user(), id, c.messages());
    }

    @Test
    void preparedFilesStayUnpublishedUntilTheCommitterCommitsTheirCheckpoint() throws Exception {
        Table table = table();
        TarnCommitter committer = new TarnCommitter(table, null);
        try (TarnSinkWriter writer = new TarnSinkWriter(table, user, false, true, dir.toPath())) {
            TarnCommittable first = checkpoint(writer, 1, 1);
            assertThat(table.metadata().latestSnapshotId()).as("nothing published").isEmpty();
            assertThat(newFiles(first)).isNotEmpty();
            assertThat(allExist(table, first, true)).isTrue();

            committer.commit(List.of(new FakeCommitRequest(first)));
            assertThat(values(table).values()).hasSize(100).containsOnly(1L);

            TarnCommittable second = checkpoint(writer, 2, 2);
            TarnCommittable third = checkpoint(writer, 3, 3);
            // Checkpoints 2 and 3 are prepared, not complete: the table is as checkpoint 1 left
            // it, their files are referenced by no snapshot, and the files their compactions
            // replace are all still there.
            assertThat(table.metadata().latestSnapshotId()).hasValue(1);
            assertThat(values(table).values()).hasSize(100).containsOnly(1L);
            Set<String> live = liveFiles(table);
            for (TarnCommittable c : List.of(second, third)) {
                assertThat(newFiles(c)).isNotEmpty().noneMatch(live::contains);
                assertThat(allExist(table, c, true)).as("prepared files").isTrue();
                assertThat(allExist(table, c, false)).as("replaced files").isTrue();
            }

            committer.commit(List.of(new FakeCommitRequest(second)));
            assertThat(values(table).values()).containsOnly(2L);
            committer.commit(List.of(new FakeCommitRequest(third)));
            assertThat(values(table).values()).containsOnly(3L);
            assertThat(values(table)).hasSize(100);
        }
        assertThat(table.metadata().latestSnapshot().orElseThrow().commit().identifier())
                .isEqualTo(3);
    }

    private static List<String> newFiles(TarnCommittable c) {
        return c.messages().stream()
                .flatMap(m -> m.newFiles().stream())
                .map(DataFile::fileName)
                .toList();
    }

    /** Whether every file the messages add ({@code added}) or replace exists on storage. */
    private static boolean allExist(Table table, TarnCommittable c, boolean added)
            throws IOException {
        for (CommitMessage m : c.messages()) {
            for (DataFile f : added ? m.newFiles() : m.deletedFiles()) {
                if (!table.io()
                        .exists(
                                new Path(
                                        table.bucketPath(m.partition(), m.bucket()),
                                        f.fileName()))) {
                    return false;
                }
            }
        }
        return true;
    }

    private static Set<String> liveFiles(Table table) {
        TableMetadata metadata = table.metadata();
        return metadata.files().liveFiles(metadata.latestSnapshot().orElseThrow()).stream()
                .map(f -> f.file().fileName())
                .collect(Collectors.toSet());
    }

    /** The table's rows as key to value, read through the scan and read seams. */
    private static Map<Long, Long> values(Table table) throws IOException {
        Map<Long, Long> values = new TreeMap<>();
        TableRead read = table.newRead();
        List<Split> splits = new ArrayList<>(table.newScan().plan().splits());
        for (Split split : splits) {
            try (TableRead.SplitReader reader = read.open(split)) {
                for (RowData r = reader.next(); r != null; r = reader.next()) {
                    assertThat(values.put(r.getLong(0), r.getLong(1)))
                            .as("one row per key")
                            .isNull();
                }
            }
        }
        return values;
    }

    private static final SinkWriter.Context NO_CONTEXT =
            new SinkWriter.Context() {
                @Override
                public long currentWatermark() {
                    return Long.MIN_VALUE;
                }

                @Override
                public Long timestamp() {
                    return null;
                }
            };
}
