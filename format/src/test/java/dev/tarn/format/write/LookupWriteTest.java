package dev.tarn.format.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.parquet.FileCodecs;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.StreamScan;
import dev.tarn.format.read.TableRead;
import dev.tarn.format.schema.TableSchema;
import java.io.IOException;
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
import org.apache.flink.types.RowKind;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table write with {@code changelog-producer} = {@code lookup} that starts before it may read the
 * table's files (a restored or checkpointed job's writer): its first commit's changelog still names
 * the rows that the published files hold.
 */
class LookupWriteTest {

    /** {@code (id BIGINT NOT NULL, v STRING)}, keyed by {@code id}. */
    private static final RowType TYPE =
            RowType.of(
                    new LogicalType[] {new BigIntType(false), VarCharType.STRING_TYPE},
                    new String[] {"id", "v"});

    @TempDir java.nio.file.Path tempDir;
    private Table table;

    @BeforeEach
    void publishTwoRows() throws IOException {
        table =
                Table.create(
                        FileIO.flinkFileSystems(),
                        new Path(tempDir.toUri()),
                        "db.t",
                        TableSchema.create(
                                TYPE,
                                List.of(),
                                List.of("id"),
                                Map.of("bucket", "1", "changelog-producer", "lookup"),
                                null));
        try (TableWrite write = table.newWrite()) {
            write.write(row(RowKind.INSERT, 1, "a"));
            write.write(row(RowKind.INSERT, 2, "b"));
            TestTables.commit(table, "loader", CommitRequest.of(1, write.prepareCommit(true)));
        }
    }

    private static GenericRowData row(RowKind kind, long id, String v) {
        GenericRowData row = GenericRowData.of(id, StringData.fromString(v));
        row.setRowKind(kind);
        return row;
    }

    /** The changelog rows that snapshot {@code id} stores, in order. */
    private List<String> changelog(long id) throws IOException {
        StreamScan scan =
                table.withDynamicOptions(Map.of("scan.snapshot-id", String.valueOf(id)))
                        .newStreamScan(null);
        List<String> rows = new ArrayList<>();
        TableRead read = table.newRead();
        for (Split split : scan.changes(id).orElseThrow().splits()) {
            try (TableRead.SplitReader reader = read.open(split)) {
                for (RowData r = reader.next(); r != null; r = reader.next()) {
                    rows.add(r.getRowKind().shortString() + r.getLong(0) + "=" + r.getString(1));
                }
            }
        }
        return rows;
    }

    @Test
    void aDeferredWriterLooksUpThePublishedFilesAtItsFirstCheckpoint() throws IOException {
        try (TableWrite write = table.newWrite().deferRestore()) {
            write.write(row(RowKind.UPDATE_AFTER, 1, "c"));
            write.write(row(RowKind.DELETE, 2, "?"));
            TestTables.commit(table, "job", CommitRequest.of(1, write.prepareCommit(false)));
            write.write(row(RowKind.UPDATE_AFTER, 1, "d"));
            TestTables.commit(table, "job", CommitRequest.of(2, write.prepareCommit(false)));
        }
        assertThat(changelog(2)).containsExactly("-U1=a", "+U1=c", "-D2=b");
        assertThat(changelog(3)).containsExactly("-U1=c", "+U1=d");
    }

    @Test
    void aDeferredWriterWhoseInputEndsFirstLooksUpTheLatestSnapshot() throws IOException {
        try (TableWrite write = table.newWrite().deferRestore()) {
            write.write(row(RowKind.UPDATE_AFTER, 2, "c"));
            TestTables.commit(table, "job", CommitRequest.of(1, write.prepareCommit(true)));
        }
        assertThat(changelog(2)).containsExactly("-U2=b", "+U2=c");
    }

    /**
     * Before-image files take {@code changelog-file.compression}, by default that of data files; a
     * query's option changes it, and data files keep {@code file.compression}.
     */
    @Test
    void beforeImageFilesTakeTheChangelogCodec() throws IOException {
        assertThat(updateAndList(table, "before-")).containsOnly(CompressionCodecName.ZSTD);
        Table lz4 = table.withDynamicOptions(Map.of("changelog-file.compression", "lz4"));
        assertThat(updateAndList(lz4, "before-")).containsOnly(CompressionCodecName.LZ4_RAW);
        assertThat(updateAndList(lz4, "data-")).containsOnly(CompressionCodecName.ZSTD);
        assertThat(changelog(4)).containsExactly("-U1=u3", "+U1=u4");
    }

    /** Commits an update of key 1; the codecs of the new files named {@code prefix...}. */
    private List<CompressionCodecName> updateAndList(Table writing, String prefix)
            throws IOException {
        java.io.File bucket = tempDir.resolve("bucket-0").toFile();
        java.util.Set<String> before = java.util.Set.of(bucket.list());
        long next = TableInternals.context(table).snapshotManager().latestId().orElseThrow() + 1;
        try (TableWrite write = writing.newWrite()) {
            write.write(row(RowKind.UPDATE_AFTER, 1, "u" + next));
            TestTables.commit(writing, "codecs", CommitRequest.of(next, write.prepareCommit(true)));
        }
        List<CompressionCodecName> codecs = new ArrayList<>();
        for (String name : bucket.list()) {
            if (name.startsWith(prefix) && !before.contains(name)) {
                codecs.addAll(FileCodecs.of(new Path(bucket.toURI().resolve(name))));
            }
        }
        assertThat(codecs).as("new %s files", prefix).isNotEmpty();
        return codecs;
    }
}
