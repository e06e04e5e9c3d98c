package dev.tarn.format;

import dev.tarn.format.commit.CommitHook;
import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.iceberg.IcebergCommit;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.io.TablePaths;
import dev.tarn.format.ledger.PendingCommits;
import dev.tarn.format.lookup.LookupSpec;
import dev.tarn.format.lookup.TableLookup;
import dev.tarn.format.maintenance.SnapshotLifecycle;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.parquet.ParquetWarmUp;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.read.StreamScan;
import dev.tarn.format.read.TableRead;
import dev.tarn.format.read.TableScan;
import dev.tarn.format.schema.ScanPosition;
import dev.tarn.format.schema.SchemaChange;
import dev.tarn.format.schema.SchemaManager;
import dev.tarn.format.schema.SchemaRules;
import dev.tarn.format.schema.StreamConfig.ScanMode;
import dev.tarn.format.schema.TableConfig;
import dev.tarn.format.schema.TableOptions;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.schema.TableSchema.TableKind;
import dev.tarn.format.snapshot.Consumers;
import dev.tarn.format.snapshot.SnapshotCommit;
import dev.tarn.format.table.TableContext;
import dev.tarn.format.write.TableWrite;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.Path;

/**
 * A Tarn table at a location, the façade users of the format start from: loading and creating
 * tables, per-query options, and the entry points of the two seams, write ({@link TableWrite} ->
 * {@link TableCommit}) and read ({@link TableScan} or {@link StreamScan} -> {@link TableRead}), and
 * the views and operations beside them ({@link #metadata}, {@link #maintenance}, {@link
 * #consumers}). The only door for callers outside the format: its context, managers and commit
 * internals stay behind it. Serializable so Flink can ship it to tasks; it holds no open resources.
 */
public final class Table implements Serializable {

    private static final long serialVersionUID = 1L;

    private final TableContext context;
    private final Map<String, String> dynamicOptions;

    private Table(
            FileIO io,
            Path location,
            String name,
            TableSchema schema,
            Map<String, String> dynamicOptions) {
        this.dynamicOptions = Map.copyOf(dynamicOptions);
        Map<String, String> all = new HashMap<>(schema.options());
        all.putAll(dynamicOptions);
        this.context = new TableContext(io, TablePaths.of(location), name, schema, all);
    }

    private static SchemaManager schemas(FileIO io, Path location, String name) {
        return new SchemaManager(
                io, TablePaths.of(location), name, SnapshotCommit.forLocation(io, location));
    }

    /**
     * Whether a table is at {@code location}: whether it holds a schema file.
     *
     * @param name how errors name the table, e.g. {@code db.orders}
     */
    public static boolean exists(FileIO io, Path location, String name) {
        return schemas(io, location, name).latestId().isPresent();
    }

    /**
     * Checks, before the first commit, that tables under {@code dir} (a warehouse, a table) can be
     * published: on an object store, that it is reachable and honours conditional puts.
     *
     * @throws IOException naming the location and the cause otherwise
     */
    public static void checkPublishable(FileIO io, Path dir) throws IOException {
        SnapshotCommit.forLocation(io, dir).verify(dir);
    }

    /**
     * Loads the table at {@code location}.
     *
     * @param name how errors name the table, e.g. {@code db.orders}
     * @throws TableNotFoundException if no schema file is there
     */
    public static Table load(FileIO io, Path location, String name) {
        SchemaManager schemas = schemas(io, location, name);
        if (schemas.latestId().isEmpty()) {
            throw new TableNotFoundException(name, location);
        }
        return new Table(io, location, name, schemas.latest(), Map.of());
    }

    /**
     * Creates a table with schema 0 at {@code location}.
     *
     * @throws TableAlreadyExistsException if a table is already there
     */
    public static Table create(FileIO io, Path location, String name, TableSchema schema) {
        if (schema.id() != 0) {
            throw new IllegalArgumentException(
                    "A new table starts at schema 0, not " + schema.id());
        }
        schema = SchemaRules.forCreate(name, schema, StorageRules.NEW_TABLE);
        SchemaManager schemas = schemas(io, location, name);
        if (schemas.latestId().isPresent()) {
            throw new TableAlreadyExistsException(name, location);
        }
        try {
            io.mkdirs(location);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot create table " + name + ": directory " + location + " is not writable",
                    e);
        }
        try {
            schemas.commit(schema);
        } catch (IllegalStateException e) {
            throw new TableAlreadyExistsException(name, location);
        }
        return new Table(io, location, name, schema, Map.of());
    }

    /**
     * This table with per-query options (hints) layered over the stored ones.
     *
     * @throws IllegalArgumentException if an option that only the table may set ({@link
     *     dev.tarn.format.schema.TableOptions.OptionScope}) is given another value than the
     *     table's, or an option is unknown or invalid
     */
    public Table withDynamicOptions(Map<String, String> options) {
        TableOptions.checkPerQuery(name(), schema(), options);
        Map<String, String> merged = new HashMap<>(dynamicOptions);
        merged.putAll(options);
        return new Table(io(), location(), name(), schema(), merged);
    }

    /**
     * This table read as of snapshot {@code id}, whatever its per-query start options said: they
     * ({@code scan.mode} and every {@link ScanPosition}) give way to {@code scan.snapshot-id} =
     * {@code id}. For a batch read that chose its snapshot when it was planned, so that the tasks
     * that plan its files later read that snapshot.
     */
    public Table atSnapshot(long id) {
        Map<String, String> pinned = new HashMap<>(dynamicOptions);
        for (ScanPosition position : ScanPosition.values()) {
            pinned.remove(position.key());
        }
        pinned.put(TableOptions.SCAN_MODE.key(), ScanMode.FROM_SNAPSHOT.key());
        pinned.put(TableOptions.SCAN_SNAPSHOT_ID.key(), String.valueOf(id));
        return new Table(io(), location(), name(), schema(), pinned);
    }

    /**
     * Alters this table (ALTER TABLE): applies {@code changes} in order to its schema and publishes
     * the result as the next schema version, checked by every rule of {@link SchemaRules}. Nothing
     * is written if a change is refused or the changes change nothing. This object keeps its
     * schema; load the table again to use the new one.
     *
     * @return the new schema, or empty if nothing changed
     * @throws IllegalArgumentException naming the table, the column or option, the reason and the
     *     value, for the first change or rule that fails
     * @throws IllegalStateException if another change created the next schema version first
     */
    public Optional<TableSchema> alter(List<SchemaChange> changes) {
        Optional<TableSchema> next =
                SchemaRules.alter(
                        name(),
                        schema(),
                        changes,
                        context.snapshotManager().latestId(),
                        new StorageRules(context));
        next.ifPresent(context.schemaManager()::commit);
        return next;
    }

    /** What the seams below this façade take; for the format's own tests, never its callers. */
    TableContext context() {
        return context;
    }

    /** The stored options with this table's per-query options over them. */
    public Map<String, String> options() {
        return context.options();
    }

    public TableConfig config() {
        return context.config();
    }

    public FileIO io() {
        return context.io();
    }

    public Path location() {
        return context.location();
    }

    public String name() {
        return context.name();
    }

    public TableSchema schema() {
        return context.schema();
    }

    public TableKind kind() {
        return context.kind();
    }

    /**
     * A read-only view of the table's snapshots, schemas, tags, partitions and files, for those
     * that show the table's metadata (system tables, statistics).
     */
    public TableMetadata metadata() {
        return new TableMetadata(context);
    }

    /** The table's maintenance operations: expiration, orphan files, rollback, tags, compaction. */
    public TableMaintenance maintenance() {
        return new TableMaintenance(context);
    }

    /**
     * The consumers of the table: the next snapshot each streaming reader with a consumer id needs,
     * which expiration keeps.
     */
    public Consumers consumers() {
        return new Consumers(io(), context.paths(), name());
    }

    /**
     * The ledger of the table's prepared files (SPEC.md, "Pending commits"): a streaming sink
     * records through it, at each checkpoint, what its committer is about to publish.
     */
    public PendingCommits pendingCommits() {
        return new PendingCommits(context);
    }

    /** The directory of one bucket of one partition. */
    public Path bucketPath(Partition partition, int bucket) {
        return context.bucketPath(partition, bucket);
    }

    /**
     * A scan that follows the table's snapshots (a streaming read, or the changes between two
     * snapshots), starting where this table's start options say.
     *
     * @param filter rows outside it may be skipped by file; null reads everything
     * @throws IllegalArgumentException naming the option and the value if a start option is invalid
     */
    public StreamScan newStreamScan(@Nullable Predicate filter) {
        return new StreamScan(context, filter);
    }

    /** A lookup join's view of this table's current rows (issue 26). Call open() before get(). */
    public TableLookup newLookup(LookupSpec spec) {
        return new TableLookup(context, spec);
    }

    public TableScan newScan() {
        return new TableScan(context);
    }

    public TableRead newRead() {
        return new TableRead(context);
    }

    /**
     * Starts loading, on a background thread, the classes the first read or write of this JVM's
     * data files needs (Parquet's footer classes take 0.1 to 0.2 s in a fresh JVM), so that a task
     * calling it when it is set up does not wait for them at its first file. Returns at once; once
     * per JVM.
     */
    public void warmUp() {
        ParquetWarmUp.start();
    }

    public TableWrite newWrite() {
        return new TableWrite(context, false);
    }

    /** A write whose files replace what they overwrite ({@link TableCommit#overwrite}). */
    public TableWrite newWrite(boolean overwrite) {
        return new TableWrite(context, overwrite);
    }

    /**
     * A committer for a new commit user, one that has published nothing before (a batch statement,
     * a maintenance call): only the latest snapshot can hold one of its commits. It expires old
     * snapshots after each commit ({@link SnapshotLifecycle#inBackground}) and writes the Iceberg
     * metadata of each snapshot if the table asks for it ({@link IcebergCommit}); close it when
     * done.
     */
    public TableCommit newCommit(String commitUser) {
        return newCommit(commitUser, Long.MAX_VALUE);
    }

    /**
     * A committer for {@code commitUser}, which began at {@code userSinceMillis} (a streaming job,
     * restored or not): a commit publishes only what no snapshot of the user since then holds.
     */
    public TableCommit newCommit(String commitUser, long userSinceMillis) {
        return newCommit(commitUser, userSinceMillis, expired -> {});
    }

    /**
     * As {@link #newCommit(String, long)}, telling {@code expirations} what each expiration run
     * after its commits did (on the expiration thread), for those that report it.
     */
    public TableCommit newCommit(
            String commitUser,
            long userSinceMillis,
            Consumer<SnapshotLifecycle.ExpireResult> expirations) {
        return new TableCommit(context, commitUser, userSinceMillis, hooks(expirations));
    }

    /** What runs around each commit: Iceberg metadata where the table asks for it, expiration. */
    private List<CommitHook> hooks(Consumer<SnapshotLifecycle.ExpireResult> expirations) {
        List<CommitHook> hooks = new ArrayList<>(IcebergCommit.hooks(context));
        hooks.add(SnapshotLifecycle.inBackground(context, expirations));
        return hooks;
    }

    @Override
    public String toString() {
        return context.toString();
    }
}
