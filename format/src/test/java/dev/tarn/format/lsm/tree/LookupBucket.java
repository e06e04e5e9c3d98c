package dev.tarn.format.lsm.tree;

import dev.tarn.format.io.FileIO;
import dev.tarn.format.lsm.KeyValue;
import dev.tarn.format.lsm.KeyValueSchema;
import dev.tarn.format.lsm.TestRows;
import dev.tarn.format.lsm.compaction.UniversalCompaction;
import dev.tarn.format.lsm.lookup.LookupMemory;
import dev.tarn.format.lsm.merge.MergeFunction;
import dev.tarn.format.lsm.merge.MergeFunctions;
import dev.tarn.format.lsm.run.BucketTreeReader;
import dev.tarn.format.lsm.run.KeyValueFileWriter;
import dev.tarn.format.lsm.sort.SortBuffer;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DataFile.SequenceRange;
import dev.tarn.format.manifest.FileContent;
import dev.tarn.format.parquet.ParquetDataReader;
import dev.tarn.format.parquet.ParquetDataWriter;
import dev.tarn.format.schema.MergeEngine;
import dev.tarn.format.schema.TableConfig;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;

/**
 * One bucket of a table {@code (k INT NOT NULL, a BIGINT, b STRING)} with {@code
 * changelog-producer} = {@code lookup}, for tests: writes changes, commits, and returns the
 * changelog files of each commit as text such as {@code "-U[1, 10, x]"}, and the bucket's current
 * rows as a merged read sees them.
 */
public final class LookupBucket implements AutoCloseable {

    public static final RowType TABLE =
            RowType.of(
                    new LogicalType[] {new IntType(false), new BigIntType(), new VarCharType(20)},
                    new String[] {"k", "a", "b"});

    private final KeyValueSchema schema = new KeyValueSchema(TABLE, new int[] {0});
    private final FileIO io = FileIO.flinkFileSystems();
    private final Path dir;
    private final Supplier<MergeFunction> merges;
    private final BucketTreeReader.ColumnOpener opener;
    private final BucketTreeWriter.Setup setup;
    private final BucketTreeWriter writer;
    private List<DataFile> lastChangelog = List.of();

    /**
     * @param changelog a lookup changelog, and the memory its index takes from
     * @param bufferBytes bytes of the write buffer: small ones flush several times a commit
     * @param published the bucket's files, from an earlier writer
     * @param minFirstSequence the least sequence number of the writer's first change
     */
    LookupBucket(
            java.nio.file.Path dir,
            MergeEngine engine,
            Map<String, String> options,
            ChangelogSetup changelog,
            int bufferBytes,
            ExecutorService compactions,
            Collection<DataFile> published,
            long minFirstSequence) {
        this.dir = new Path(dir.toUri());
        this.merges = () -> MergeFunctions.create(engine, TABLE, new int[] {0}, options);
        this.setup =
                new BucketTreeWriter.Setup(
                        schema,
                        merges,
                        new UniversalCompaction(200, 1, 3, 5),
                        compactions,
                        6,
                        0,
                        changelog,
                        null);
        this.opener =
                (file, readType) ->
                        ParquetDataReader.open(
                                io,
                                new Path(this.dir, file.fileName()),
                                file.fileSize(),
                                schema.fileType(),
                                readType,
                                null);
        KeyValueFileWriter.Target target =
                new KeyValueFileWriter.Target(
                        io,
                        this.dir,
                        schema,
                        ParquetDataWriter.Options.defaults(),
                        TableConfig.FileCompression.LZ4,
                        1 << 20,
                        0);
        long first =
                Math.max(
                        minFirstSequence,
                        1 + published.stream().mapToLong(f -> f.sequence().max()).max().orElse(0));
        this.writer =
                new BucketTreeWriter(
                        setup,
                        target,
                        opener,
                        new Levels(schema, 5, published),
                        SortBuffer.inMemory(schema.keys(), bufferBytes),
                        first,
                        null);
    }

    BucketTreeWriter writer() {
        return writer;
    }

    LookupMemory memory() {
        return setup.changelog().lookupMemory();
    }

    /** A change of the given kind; a null {@code a} or {@code b} stays null. */
    static RowData change(RowKind kind, int k, Long a, String b) {
        GenericRowData row = TestRows.row(k, a, b);
        row.setRowKind(kind);
        return row;
    }

    void write(RowData... changes) throws IOException {
        for (RowData change : changes) {
            writer.write(change);
        }
    }

    /** Commits what was written and returns the commit's changelog, file after file. */
    List<String> commit() throws IOException {
        BucketTreeWriter.Changes changes = writer.prepareCommit(false);
        lastChangelog = changes.changelogFiles();
        return read(changes.changelogFiles(), changes.newFiles());
    }

    /** The changelog files of the last {@link #commit}. */
    List<DataFile> lastChangelog() {
        return lastChangelog;
    }

    /**
     * The changelog of a commit as text, each row with its kind, as SPEC.md ("Changelog files")
     * defines it: the rows of full changelog files as written, then per flush, the new rows of its
     * level-0 files (those within its before-image files' sequence range) with its before-images.
     */
    List<String> read(List<DataFile> changelogFiles, List<DataFile> newFiles) throws IOException {
        List<String> rows = new ArrayList<>();
        Map<SequenceRange, List<DataFile>> flushes = new LinkedHashMap<>();
        for (DataFile file : changelogFiles) {
            if (file.content() == FileContent.BEFORE_IMAGES) {
                flushes.computeIfAbsent(file.sequence(), r -> new ArrayList<>()).add(file);
            } else {
                for (Stored row : stored(List.of(file))) {
                    rows.add(row.kind().shortString() + row.text());
                }
            }
        }
        for (Map.Entry<SequenceRange, List<DataFile>> flush : flushes.entrySet()) {
            SequenceRange range = flush.getKey();
            List<Stored> images = stored(flush.getValue());
            List<DataFile> level0 =
                    newFiles.stream()
                            .filter(
                                    f ->
                                            f.sequence().min() >= range.min()
                                                    && f.sequence().max() <= range.max())
                            .toList();
            int i = 0;
            for (Stored row : stored(level0)) {
                Stored image =
                        i < images.size() && images.get(i).sequence() == row.sequence()
                                ? images.get(i++)
                                : null;
                if (image == null) {
                    if (!KeyValue.isRetraction(row.kind())) {
                        rows.add("+I" + row.text());
                    }
                } else if (image.kind() == RowKind.UPDATE_BEFORE) {
                    rows.add("-U" + image.text());
                    rows.add("+U" + row.text());
                } else if (image.kind() == RowKind.DELETE) {
                    rows.add("-D" + image.text());
                } else if (image.kind() != RowKind.UPDATE_AFTER) {
                    throw new AssertionError("A before-image of kind " + image.kind());
                }
            }
            if (i != images.size()) {
                throw new AssertionError(
                        (images.size() - i) + " before-images of " + range + " have no new row");
            }
        }
        return rows;
    }

    /** A stored row of a data or changelog file, as text. */
    private record Stored(long sequence, RowKind kind, String text) {}

    private List<Stored> stored(List<DataFile> files) throws IOException {
        List<Stored> rows = new ArrayList<>();
        int sequence = TABLE.getFieldCount();
        for (DataFile file : files) {
            try (ParquetDataReader reader = opener.open(file, schema.fileType())) {
                for (RowData row = reader.next(); row != null; row = reader.next()) {
                    rows.add(
                            new Stored(
                                    row.getLong(sequence),
                                    RowKind.fromByteValue(row.getByte(sequence + 1)),
                                    text(row)));
                }
            }
        }
        return rows;
    }

    /** The bucket's files as its writer knows them. */
    List<DataFile> files() {
        List<DataFile> files = new ArrayList<>();
        writer.runs().forEach(r -> files.addAll(r.files()));
        return files;
    }

    /** The current row of every key, merged as a read merges them, as text in key order. */
    List<String> currentRows() throws IOException {
        List<String> rows = new ArrayList<>();
        try (BucketTreeReader reader =
                new BucketTreeReader(schema, files(), opener, merges.get())) {
            for (RowData row = reader.next(); row != null; row = reader.next()) {
                rows.add(text(row));
            }
        }
        return rows;
    }

    /** {@code [k, a, b]} of a row whose first fields are the table's. */
    public static String text(RowData row) {
        return "["
                + row.getInt(0)
                + ", "
                + (row.isNullAt(1) ? "null" : row.getLong(1))
                + ", "
                + (row.isNullAt(2) ? "null" : row.getString(2))
                + "]";
    }

    @Override
    public void close() {
        writer.close();
    }
}
