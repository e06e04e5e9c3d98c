package dev.tarn.format.lsm.tree;

import dev.tarn.format.deletion.IndexFiles;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.lsm.KeyValueSchema;
import dev.tarn.format.lsm.compaction.UniversalCompaction;
import dev.tarn.format.lsm.lookup.BucketVectors;
import dev.tarn.format.lsm.lookup.LookupMemory;
import dev.tarn.format.lsm.merge.MergeFunction;
import dev.tarn.format.lsm.merge.MergeFunctions;
import dev.tarn.format.lsm.run.BucketTreeReader;
import dev.tarn.format.lsm.run.KeyValueFileWriter;
import dev.tarn.format.lsm.sort.SortBuffer;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.parquet.ParquetDataWriter;
import dev.tarn.format.schema.MergeEngine;
import dev.tarn.format.schema.TableConfig;
import dev.tarn.format.schema.TableSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.types.logical.RowType;

/**
 * The LSM trees of the buckets of one table write: the one way into the tree for code that writes
 * it. Built from the table's schema and options, which it checks first (reserved columns, merge
 * options, compaction options); then {@link #open} starts each bucket's {@link BucketTreeWriter}
 * from the bucket's files. The writers share what is made here once: the merge engine, the
 * compaction picker, one background compaction thread and one local directory for spilled write
 * buffers. With {@code write-only}, writers never compact by themselves, only when asked to compact
 * a bucket fully (a compaction job). Not thread-safe; {@link #close} it after the writers it
 * opened.
 */
public final class BucketTrees implements AutoCloseable {

    /** Spill files per bucket before it must flush: bounds open files when reading them back. */
    private static final int MAX_SPILL_FILES = 64;

    private final String tableName;
    private final KeyValueSchema schema;
    private final TableConfig.Lsm config;
    private final ChangelogSetup changelog;
    private final FileIO io;
    private final ParquetDataWriter.Options parquetOptions;
    private final TableConfig.FileCompression changelogCompression;
    private final long targetFileSize;
    private final long schemaId;
    private final UniversalCompaction picker;
    private final boolean writeOnly;
    private final Supplier<MergeFunction> merges;
    @Nullable private final BucketTreeWriter.VectorSetup vectors;
    @Nullable private BucketTreeWriter.Setup setup;
    @Nullable private ExecutorService compactions;
    @Nullable private java.nio.file.Path spillDirectory;

    /** Where {@link #spillDirectory} is made: the JVM's temporary directory unless told. */
    private java.nio.file.Path spillParent =
            java.nio.file.Path.of(System.getProperty("java.io.tmpdir"));

    /**
     * @param options the table's options as this write sees them (the schema's, and a query's over
     *     them)
     * @param config the same options, typed
     * @param overwrite the write replaces the buckets' files and hands out only their final files
     * @throws IllegalArgumentException if the schema or options make no valid tree, naming the
     *     column or option
     */
    public BucketTrees(
            String tableName,
            TableSchema schema,
            Map<String, String> options,
            TableConfig config,
            FileIO io,
            ParquetDataWriter.Options parquetOptions,
            boolean overwrite) {
        this(tableName, schema, options, config, io, parquetOptions, overwrite, f -> true);
    }

    /**
     * @param maintained with deletion vectors on: whether a file was written with them kept
     *     (SPEC.md, "Deletion vectors")
     */
    public BucketTrees(
            String tableName,
            TableSchema schema,
            Map<String, String> options,
            TableConfig config,
            FileIO io,
            ParquetDataWriter.Options parquetOptions,
            boolean overwrite,
            java.util.function.Predicate<DataFile> maintained) {
        validate(schema, options, config.lsm().mergeEngine());
        if (config.lsm().deletionVectors()
                && config.stream().changelogProducer()
                        == dev.tarn.format.schema.StreamConfig.ChangelogProducer.FULL_COMPACTION) {
            throw new IllegalArgumentException(
                    String.format(
                            "Table %s has 'deletion-vectors.enabled' = 'true' and"
                                    + " 'changelog-producer' = 'full-compaction', which Tarn does"
                                    + " not combine yet: use 'lookup' (the same changes, at each"
                                    + " commit)",
                            tableName));
        }
        this.tableName = tableName;
        this.schema = KeyValueSchema.of(schema);
        this.config = config.lsm();
        this.changelog =
                switch (config.stream().changelogProducer()) {
                    case NONE -> ChangelogSetup.NONE;
                    case INPUT ->
                            new ChangelogSetup(
                                    config.lsm().ignoreDelete()
                                            ? ChangelogSetup.Kind.WITHOUT_RETRACTIONS
                                            : ChangelogSetup.Kind.ALL,
                                    null,
                                    false);
                    case LOOKUP ->
                            ChangelogSetup.lookup(
                                    config.lsm().memory().lookupCacheSize(),
                                    config.lsm().newestVersionIsRow()
                                            && !overwrite
                                            && !config.lsm().deletionVectors());
                    case FULL_COMPACTION -> ChangelogSetup.FULL_COMPACTION;
                };
        this.vectors =
                config.lsm().deletionVectors()
                        ? new BucketTreeWriter.VectorSetup(
                                changelog.lookupMemory() != null
                                        ? changelog.lookupMemory()
                                        : new LookupMemory(config.lsm().memory().lookupCacheSize()),
                                maintained,
                                // A write-only writer leaves every compaction to a dedicated job.
                                config.compaction().writeOnly()
                                        ? 1
                                        : config.lsm().deleteRatioThreshold())
                        : null;
        this.io = io;
        this.parquetOptions = parquetOptions;
        this.changelogCompression = config.changelogCompression();
        this.targetFileSize = config.sizes().targetFileSize();
        this.schemaId = schema.id();
        // A write-only writer flushes sorted runs and leaves compaction to a dedicated job.
        this.writeOnly = config.compaction().writeOnly();
        UniversalCompaction rules = UniversalCompaction.fromOptions(options);
        this.picker = writeOnly ? rules.manualOnly() : rules;
        MergeEngine engine = config.lsm().mergeEngine();
        RowType rowType = this.schema.tableType();
        int[] keys = this.schema.keyIndexes();
        this.merges = () -> MergeFunctions.create(engine, rowType, keys, options);
    }

    /**
     * Checks that a primary-key table's columns and options make a tree: no column takes a name the
     * data files reserve, the merge engine accepts its per-field options, and the compaction
     * options are in range.
     *
     * @throws IllegalArgumentException naming the column or option and its value
     */
    public static void validate(
            TableSchema schema, Map<String, String> options, MergeEngine engine) {
        KeyValueSchema kv = KeyValueSchema.of(schema);
        MergeFunctions.create(engine, kv.tableType(), kv.keyIndexes(), options);
        UniversalCompaction.fromOptions(options);
    }

    /** The columns of the buckets' data files: the table's, then sequence number and row kind. */
    public RowType fileType() {
        return schema.fileType();
    }

    /**
     * Starts the writer of the bucket in {@code dir} from its live {@code files}, numbering its
     * changes from above every sequence number in them and from at least {@code minFirstSequence}.
     *
     * @param opener opens the bucket's files for compaction and lookups
     * @throws IllegalArgumentException if a file is not a primary-key file of a level this table
     *     has
     */
    public BucketTreeWriter open(
            Path dir,
            Collection<DataFile> files,
            BucketTreeReader.ColumnOpener opener,
            long minFirstSequence)
            throws IOException {
        return open(dir, files, opener, minFirstSequence, (BucketVectors) null);
    }

    /**
     * As {@link #open(Path, Collection, BucketTreeReader.ColumnOpener, long)}, for a table with
     * deletion vectors on: the bucket's vectors live in index files of {@code indexFiles}, and
     * {@code vectors} are those of {@code files}, by file name.
     */
    public BucketTreeWriter open(
            Path dir,
            Collection<DataFile> files,
            BucketTreeReader.ColumnOpener opener,
            long minFirstSequence,
            IndexFiles indexFiles,
            Map<String, DeletionFile> vectors)
            throws IOException {
        if (this.vectors == null) {
            throw new IllegalArgumentException(
                    "Bucket " + dir + " has deletion vectors but the table has them off");
        }
        BucketVectors bucket = new BucketVectors(indexFiles);
        bucket.restore(files, vectors);
        return open(dir, files, opener, minFirstSequence, bucket);
    }

    private BucketTreeWriter open(
            Path dir,
            Collection<DataFile> files,
            BucketTreeReader.ColumnOpener opener,
            long minFirstSequence,
            @Nullable BucketVectors vectors)
            throws IOException {
        if (this.vectors != null && vectors == null) {
            throw new IllegalArgumentException(
                    "Bucket " + dir + " needs its deletion vectors: the table has them on");
        }
        Levels levels = new Levels(schema, picker.maxLevel(), files);
        long firstSequence = Math.max(levels.maxSequence() + 1, minFirstSequence);
        KeyValueFileWriter.Target target =
                new KeyValueFileWriter.Target(
                        io,
                        dir,
                        schema,
                        parquetOptions,
                        changelogCompression,
                        targetFileSize,
                        schemaId);
        BucketTreeWriter writer =
                new BucketTreeWriter(
                        setup(), target, opener, levels, buffer(), firstSequence, vectors);
        if (vectors != null) {
            writer.startWithVectors(files, List.of());
        }
        return writer;
    }

    private BucketTreeWriter.Setup setup() {
        if (setup == null) {
            compactions =
                    Executors.newSingleThreadExecutor(
                            r -> {
                                Thread t = new Thread(r, "tarn-compaction-" + tableName);
                                t.setDaemon(true);
                                return t;
                            });
            setup =
                    new BucketTreeWriter.Setup(
                            schema,
                            merges,
                            picker,
                            compactions,
                            config.sortedRunStopTrigger(),
                            writeOnly ? 0 : fullCompactionEvery(),
                            changelog,
                            vectors);
        }
        return setup;
    }

    /**
     * Commits of a bucket's writer between full compactions, 0 for never: {@code
     * full-compaction.delta-commits}, which with {@code changelog-producer} = {@code
     * full-compaction} is 1 if unset (as in Apache Paimon), since only full compactions bring
     * changes to streaming readers.
     */
    private int fullCompactionEvery() {
        int every = config.fullCompactionDeltaCommits();
        return every == 0 && changelog.kind() == ChangelogSetup.Kind.FULL_COMPACTION ? 1 : every;
    }

    /**
     * The last level of the trees of a table with {@code options}: where full compactions write,
     * and, with {@code changelog-producer} = {@code full-compaction}, what a streaming read's full
     * phase reads.
     *
     * @throws IllegalArgumentException if {@code num-levels} is not a valid number of levels
     */
    public static int lastLevel(Map<String, String> options) {
        return UniversalCompaction.fromOptions(options).maxLevel();
    }

    /**
     * Makes the spill directory, at the first spill, under {@code parent} instead of the JVM's
     * temporary directory.
     */
    public void spillUnder(java.nio.file.Path parent) {
        this.spillParent = parent;
    }

    private SortBuffer buffer() throws IOException {
        TableConfig.Memory memory = config.memory();
        if (!memory.spillable()) {
            return SortBuffer.inMemory(schema.keys(), memory.writeBufferSize());
        }
        if (spillDirectory == null) {
            spillDirectory = Files.createTempDirectory(spillParent, "tarn-spill-");
        }
        return SortBuffer.spillable(
                schema.keys(), memory.writeBufferSize(), spillDirectory, MAX_SPILL_FILES);
    }

    /**
     * How many of the buckets' lookup indexes (a lookup changelog's or deletion vectors') hold
     * memory now; 0 if they keep none.
     */
    public int lookupIndexes() {
        LookupMemory memory = lookupMemory();
        return memory == null ? 0 : memory.indexes();
    }

    /** Bytes the buckets' lookup indexes hold now; 0 if they keep none. */
    public long lookupMemoryBytes() {
        LookupMemory memory = lookupMemory();
        return memory == null ? 0 : memory.used();
    }

    @Nullable
    private LookupMemory lookupMemory() {
        return vectors != null ? vectors.memory() : changelog.lookupMemory();
    }

    /**
     * Stops the compaction thread (a running compaction is interrupted and deletes what it wrote)
     * and deletes the spill directory. Close the writers first: their files are theirs to keep or
     * delete.
     */
    @Override
    public void close() {
        if (compactions != null) {
            compactions.shutdownNow();
            compactions = null;
            setup = null;
        }
        if (spillDirectory != null) {
            try (var files = Files.list(spillDirectory)) {
                for (java.nio.file.Path f : (Iterable<java.nio.file.Path>) files::iterator) {
                    Files.deleteIfExists(f);
                }
                Files.deleteIfExists(spillDirectory);
            } catch (IOException ignored) {
                // A temporary directory; the operating system cleans it up eventually.
            }
            spillDirectory = null;
        }
    }
}
