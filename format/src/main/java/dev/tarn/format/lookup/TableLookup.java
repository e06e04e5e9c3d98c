package dev.tarn.format.lookup;

import dev.tarn.format.bucket.BucketChannels;
import dev.tarn.format.bucket.BucketHasher;
import dev.tarn.format.manifest.BucketId;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.read.Split;
import dev.tarn.format.schema.MergeEngine;
import dev.tarn.format.schema.TableSchema.TableKind;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.SnapshotManager;
import dev.tarn.format.table.TableContext;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import javax.annotation.Nullable;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * A lookup join's view of a table's current rows (issue 26): the rows of the buckets it holds
 * ({@link LookupSpec#subtask}), as of the snapshot it applied last, indexed by the join columns
 * ({@link LookupLayout}). {@link #refresh} applies each later snapshot's changes where they are
 * rows ({@link BucketLoader}); where they are not, it reloads the buckets they touch. Always: every
 * held bucket answers from one applied snapshot, and {@link #get} sees a bucket before or after a
 * snapshot's changes, never half of them.
 *
 * <p>Over 500 lines: the gets and the refresh share the bucket map and its per-bucket locks, and
 * the rule above holds only if the code that takes those locks sits in one class.
 */
public final class TableLookup implements Closeable {

    private final TableContext context;
    private final LookupSpec spec;
    private final LookupLayout layout;
    private final BucketLoader loader;

    /** The memory and local disk all held buckets' stores share. */
    private final LookupBudget budget;

    /**
     * Where the files are sorted by the join columns: a get whose bucket the first load has not
     * loaded yet reads its key's rows from the bucket's files rather than wait for it. Else null.
     */
    @Nullable private final FileGets fileGets;

    private final RowData.FieldGetter[] keyGetters;
    private final RowData.FieldGetter[] projectionGetters;

    /** Whether a key's rows are all in the bucket its join columns route to. */
    private final boolean routed;

    private final ThreadLocal<LookupShuffle> locators;
    private final Map<BucketId, HeldBucket> buckets = new ConcurrentHashMap<>();

    /**
     * For a join on the whole key of an unpartitioned table: the writer's bucket of a key row,
     * computed on any thread (no thread-local router); null otherwise.
     */
    @Nullable private final BucketHasher keyBuckets;

    private final int totalBuckets;

    /**
     * With {@link #keyBuckets}: the held buckets by number, replaced as a whole (by the refresh
     * thread) whenever {@link #buckets} changes, before a replaced bucket is closed.
     */
    private volatile HeldBucket[] byNumber;

    /** For a stored row's index-key position, the key row field it is (others: 0, never read). */
    private final int[] keyAtStorePositions;

    private final SnapshotChanges changes;

    /** The load {@link #start} began, while under way: gets wait in it for their bucket. */
    @Nullable private volatile BucketLoader.Loading first;

    /** The snapshot {@link #first} loads. */
    @Nullable private Snapshot firstSnapshot;

    /** Set by {@link #close}, under the {@link #buckets} lock: a bucket loaded later is closed. */
    private boolean closed;

    private long reloads;
    private volatile boolean opened;
    private volatile long snapshotId = -1;

    /** The delta manifest list of the applied snapshot: a rollback's new one has another. */
    @Nullable private String appliedDelta;

    /** Made by the table's façade ({@code Table.newLookup}), which holds its context. */
    public TableLookup(TableContext context, LookupSpec spec) {
        this.context = context;
        this.spec = spec;
        this.layout = new LookupLayout(context.name(), context.schema(), spec);
        this.budget =
                new LookupBudget(
                        context.config().lsm().memory().lookupCacheSize(),
                        context.config().lookup().maxDiskBytes());
        boolean keepFirst =
                context.kind() == TableKind.PRIMARY_KEY
                        && context.config().lsm().mergeEngine() == MergeEngine.FIRST_ROW;
        this.loader =
                new BucketLoader(
                        context,
                        layout,
                        () ->
                                HeldBucket.spilling(
                                        layout,
                                        RowFilter.of(spec.filter(), layout.readPosition),
                                        keepFirst,
                                        budget,
                                        spec.localDir()),
                        spec.filter());
        this.changes = new SnapshotChanges(context, spec.filter());
        this.keyGetters = new RowData.FieldGetter[spec.joinKeys().size()];
        for (int i = 0; i < keyGetters.length; i++) {
            keyGetters[i] =
                    RowData.createFieldGetter(
                            context.schema().fieldType(spec.joinKeys().get(i)), i);
        }
        this.projectionGetters = new RowData.FieldGetter[layout.projected];
        for (int i = 0; i < projectionGetters.length; i++) {
            projectionGetters[i] = RowData.createFieldGetter(layout.storeType.getTypeAt(i), i);
        }
        this.totalBuckets = context.config().bucket();
        this.routed =
                totalBuckets > 0
                        && LookupShuffle.determinesBucket(context.schema(), spec.joinKeys());
        this.fileGets =
                routed && FileGets.applies(context, spec.joinKeys())
                        ? new FileGets(context, spec, layout, keepFirst, keyGetters)
                        : null;
        this.keyAtStorePositions = new int[layout.storeType.getFieldCount()];
        for (int i = 0; i < layout.joinFields; i++) {
            keyAtStorePositions[layout.indexKey[i]] = i;
        }
        if (routed
                && layout.mode == LookupLayout.Mode.KEY
                && context.schema().partitionKeys().isEmpty()) {
            List<String> bucketKeys = context.schema().bucketKeys();
            int[] inKeyRow = new int[bucketKeys.size()];
            for (int i = 0; i < inKeyRow.length; i++) {
                inKeyRow[i] = spec.joinKeys().indexOf(bucketKeys.get(i));
            }
            this.keyBuckets = new BucketHasher(keyRowType(context, spec), inKeyRow);
            this.byNumber = new HeldBucket[totalBuckets];
        } else {
            this.keyBuckets = null;
        }
        this.locators =
                ThreadLocal.withInitial(
                        () -> new LookupShuffle(context.schema(), totalBuckets, spec.joinKeys()));
    }

    /**
     * Loads the held buckets' current rows as of the latest snapshot (empty if none), the buckets
     * read in parallel on {@code read.decode-threads} threads, and returns when all are loaded.
     */
    public void open() throws IOException {
        start();
        finishFirst();
    }

    /**
     * Starts loading what {@link #open} loads and returns once the load is planned. A {@link #get}
     * of a bucket not loaded yet then reads the key's rows from the bucket's files where they are
     * sorted by the join columns ({@link FileGets}), else waits only for the bucket it reads
     * (loading it on its own thread if no loading thread has started it); {@link #refresh} waits
     * for the whole load. A bucket that fails to load fails every get and refresh after it, with
     * the reason; this method does not wait for any.
     */
    public void start() throws IOException {
        OptionalLong latest = context.snapshotManager().latestId();
        if (latest.isPresent()) {
            Snapshot snapshot = context.snapshotManager().snapshot(latest.getAsLong());
            BucketLoader.Loading loading =
                    loader.start(snapshot, this::holds, null, this::installLoaded);
            firstSnapshot = snapshot;
            first = loading;
        }
        opened = true;
    }

    /** A bucket of the first load, ready: visible to gets from now. On a loading thread. */
    private void installLoaded(BucketId id, HeldBucket bucket) {
        synchronized (buckets) {
            if (closed) {
                try {
                    closeLocked(bucket);
                } catch (IOException e) {
                    // The bucket was never visible; its local files go with the lookup's directory.
                }
                return;
            }
            buckets.put(id, bucket);
            number();
        }
    }

    /** Closes {@code bucket} under its write lock, so no get is reading it meanwhile. */
    private static void closeLocked(HeldBucket bucket) throws IOException {
        bucket.lock.writeLock().lock();
        try {
            bucket.close();
        } finally {
            bucket.lock.writeLock().unlock();
        }
    }

    /**
     * With {@link #fileGets}, while the first load has not loaded bucket {@code id}: the rows whose
     * join columns equal {@code key}'s, read from the bucket's files of the load's snapshot (the
     * rows the bucket will hold). Null otherwise: the bucket is to be read from memory.
     */
    @Nullable
    private List<RowData> fromFiles(BucketId id, RowData key) throws IOException {
        BucketLoader.Loading loading = first;
        if (fileGets == null || loading == null) {
            return null;
        }
        List<Split> splits = loading.unloaded(id);
        if (splits == null) {
            return null;
        }
        List<RowData> out = new ArrayList<>(1);
        fileGets.get(splits, key, row -> out.add(project(row)));
        return out;
    }

    /** Whether a get of a bucket not loaded yet reads the bucket's files ({@link FileGets}). */
    boolean answersFromFiles() {
        return fileGets != null;
    }

    /** Waits for the first load's bucket {@code id}, if that load is still under way. */
    private void awaitFirst(BucketId id) throws IOException {
        BucketLoader.Loading loading = first;
        if (loading != null) {
            loading.await(id);
            if (loading.done()) {
                finishFirst();
            }
        }
    }

    /** Waits for the whole first load, if still under way, then counts its snapshot applied. */
    private void finishFirst() throws IOException {
        BucketLoader.Loading loading = first;
        if (loading != null) {
            loading.awaitAll();
            synchronized (buckets) {
                if (first == loading) {
                    applied(firstSnapshot);
                    first = null;
                }
            }
        }
    }

    /**
     * Rows whose join-key columns equal {@code key}'s fields (one field per join key, in spec
     * order, of the column's type). Rows are of the projection's type and owned by the caller
     * (copies). Empty if none or if a key field is null. Thread-safe: several threads may call it,
     * and {@link #refresh} may run meanwhile on another thread.
     */
    public List<RowData> get(RowData key) throws IOException {
        if (!opened) {
            throw new IllegalStateException(
                    "The lookup of table " + context.name() + " is not open: call open() first");
        }
        for (int i = 0; i < keyGetters.length; i++) {
            if (key.isNullAt(i)) {
                return List.of();
            }
        }
        if (keyBuckets != null) {
            return getByKey(key);
        }
        GenericRowData probe = layout.probe(key, keyGetters);
        List<RowData> out = new ArrayList<>(1);
        Consumer<RowData> collect = row -> out.add(project(row));
        if (routed) {
            BucketId id = locators.get().bucketOf(key);
            List<RowData> fromFiles = fromFiles(id, key);
            if (fromFiles != null) {
                return fromFiles;
            }
            awaitFirst(id);
            scan(id, probe, collect);
        } else {
            finishFirst();
            for (BucketId id : buckets.keySet()) {
                scan(id, probe, collect);
            }
        }
        return out;
    }

    /**
     * A get by the whole key of an unpartitioned table: its bucket by number, one read lock, the
     * memory's hash index probed with a view of the key row (not encoded), one copy of the row; the
     * general scan only where the hash index cannot decide.
     */
    private List<RowData> getByKey(RowData key) throws IOException {
        int number = keyBuckets.bucket(key, totalBuckets);
        if (first != null) {
            BucketId id = new BucketId(Partition.EMPTY, number);
            List<RowData> fromFiles = fromFiles(id, key);
            if (fromFiles != null) {
                return fromFiles;
            }
            awaitFirst(id);
        }
        ProjectedRowData view = ProjectedRowData.from(keyAtStorePositions);
        view.replaceRow(key);
        // One scratch row: candidates are pointed at while probing, then the row found.
        BinaryRowData scratch = new BinaryRowData(keyAtStorePositions.length);
        for (HeldBucket bucket = byNumber[number]; bucket != null; bucket = byNumber[number]) {
            bucket.lock.readLock().lock();
            try {
                if (bucket.closed()) {
                    continue;
                }
                BinaryRowData row = bucket.getIndexed(view, scratch, scratch);
                if (row == BucketStore.UNDECIDED) {
                    List<RowData> out = new ArrayList<>(1);
                    bucket.scan(layout.probe(key, keyGetters), r -> out.add(project(r)));
                    return out;
                }
                return row == null ? List.of() : List.of(project(row));
            } finally {
                bucket.lock.readLock().unlock();
            }
        }
        return List.of();
    }

    private static RowType keyRowType(TableContext context, LookupSpec spec) {
        List<RowType.RowField> fields = new ArrayList<>();
        for (String key : spec.joinKeys()) {
            fields.add(new RowType.RowField(key, context.schema().fieldType(key)));
        }
        return new RowType(false, fields);
    }

    /** Scans the bucket held as {@code id}, again if a reload replaced it meanwhile. */
    private void scan(BucketId id, RowData probe, Consumer<RowData> out) throws IOException {
        for (HeldBucket bucket = buckets.get(id); bucket != null; bucket = buckets.get(id)) {
            bucket.lock.readLock().lock();
            try {
                if (bucket.scan(probe, out)) {
                    return;
                }
            } finally {
                bucket.lock.readLock().unlock();
            }
        }
    }

    private RowData project(RowData stored) {
        BinaryRowData owned = ((BinaryRowData) stored).copy();
        if (projectionGetters.length == owned.getArity()) {
            return owned;
        }
        GenericRowData row = new GenericRowData(projectionGetters.length);
        for (int i = 0; i < projectionGetters.length; i++) {
            row.setField(i, projectionGetters[i].getFieldOrNull(owned));
        }
        return row;
    }

    /**
     * Applies every snapshot published since the applied one, incrementally (each commit's changes,
     * not a reload), and returns the snapshot id now applied (-1 if the table has none). A snapshot
     * that expired before it was applied makes it reload. Call it from one thread at a time.
     *
     * @throws IllegalStateException naming the table and the snapshot ids if the table was rolled
     *     back below the applied snapshot, or dropped
     */
    public long refresh() throws IOException {
        if (!opened) {
            throw new IllegalStateException(
                    "The lookup of table " + context.name() + " is not open: call open() first");
        }
        finishFirst();
        checkNotDropped();
        SnapshotManager snapshots = context.snapshotManager();
        OptionalLong latest = snapshots.latestId();
        long applied = snapshotId;
        if (applied >= 0) {
            checkNotRolledBack(applied, latest);
        }
        if (latest.isEmpty()) {
            return -1;
        }
        for (long id = applied + 1; id <= latest.getAsLong(); id++) {
            if (!snapshots.exists(id)) {
                // Expired before this lookup got to it: its changes are lost, read the table anew.
                reloadAll(snapshots.snapshot(latest.getAsLong()));
                return snapshotId;
            }
            apply(snapshots.snapshot(id));
        }
        return snapshotId;
    }

    private void checkNotDropped() throws IOException {
        if (!context.io().exists(context.schemaManager().path(context.schema().id()))) {
            throw new IllegalStateException(
                    String.format(
                            "Table %s was dropped or renamed under a lookup join that had applied"
                                    + " its snapshot %d (its schema file is gone from %s); restart"
                                    + " the join on the table's current name",
                            context.name(), snapshotId, context.location()));
        }
    }

    private void checkNotRolledBack(long applied, OptionalLong latest) {
        SnapshotManager snapshots = context.snapshotManager();
        boolean below = latest.isEmpty() || latest.getAsLong() < applied;
        boolean replaced =
                !below
                        && snapshots.exists(applied)
                        && !snapshots.snapshot(applied).deltaManifestList().equals(appliedDelta);
        if (below || replaced) {
            throw new IllegalStateException(
                    String.format(
                            "Table %s was rolled back under a lookup join: the join applied"
                                    + " snapshot %d, the table's latest is now %s%s. Restart the"
                                    + " join to read the table as it is",
                            context.name(),
                            applied,
                            latest.isEmpty() ? "none" : String.valueOf(latest.getAsLong()),
                            replaced ? " and snapshot " + applied + " was committed anew" : ""));
        }
    }

    /** Applies one snapshot: its changes where they are rows, else a reload of what it touched. */
    private void apply(Snapshot snapshot) throws IOException {
        SnapshotChanges.Planned planned = changes.plan(snapshot, this::holds);
        for (Map.Entry<BucketId, List<Split>> e : planned.rows().entrySet()) {
            List<RowData> rows = loader.readChanges(e.getValue());
            HeldBucket bucket = buckets.get(e.getKey());
            if (bucket == null) {
                bucket = loader.newBucket();
                buckets.put(e.getKey(), bucket);
                number();
            }
            bucket.lock.writeLock().lock();
            try {
                for (RowData row : rows) {
                    bucket.apply(row);
                }
            } finally {
                bucket.lock.writeLock().unlock();
            }
        }
        if (!planned.reload().isEmpty()) {
            reloads += planned.reload().size();
            install(loader.load(snapshot, this::holds, planned.reload()), planned.reload());
        }
        applied(snapshot);
    }

    /** Buckets read anew by {@link #refresh} so far, whole reloads not counted: for tests. */
    long bucketReloads() {
        return reloads;
    }

    private void reloadAll(Snapshot snapshot) throws IOException {
        Map<BucketId, HeldBucket> loaded = loader.load(snapshot, this::holds, null);
        Set<BucketId> all = new HashSet<>(buckets.keySet());
        all.addAll(loaded.keySet());
        install(loaded, all);
        applied(snapshot);
    }

    /** Replaces the buckets {@code replaced} by those {@code loaded} (absent ones: now empty). */
    private void install(Map<BucketId, HeldBucket> loaded, Set<BucketId> replaced)
            throws IOException {
        List<HeldBucket> olds = new ArrayList<>();
        for (BucketId id : replaced) {
            HeldBucket fresh = loaded.get(id);
            HeldBucket old = fresh == null ? buckets.remove(id) : buckets.put(id, fresh);
            if (old != null) {
                olds.add(old);
            }
        }
        number();
        for (HeldBucket old : olds) {
            closeLocked(old);
        }
    }

    /**
     * Renumbers {@link #byNumber} after {@link #buckets} changed: on the refresh thread, or on a
     * loading thread of the first load (under the {@link #buckets} lock, so loads do not race).
     */
    private void number() {
        if (keyBuckets != null) {
            synchronized (buckets) {
                HeldBucket[] numbered = new HeldBucket[totalBuckets];
                buckets.forEach((id, bucket) -> numbered[id.bucket()] = bucket);
                byNumber = numbered;
            }
        }
    }

    private void applied(Snapshot snapshot) {
        appliedDelta = snapshot.deltaManifestList();
        snapshotId = snapshot.id();
    }

    private boolean holds(BucketId id) {
        return spec.subtasks() == 1
                || BucketChannels.channel(id.partition(), id.bucket(), spec.subtasks())
                        == spec.subtask();
    }

    /**
     * Whether the first load is done: a get then answers from the rows held (memory or local spill
     * files), never waiting for a bucket to load or reading the table's files. A refresh applying a
     * snapshot may still hold a bucket for the moment it takes.
     */
    public boolean loaded() {
        return opened && first == null;
    }

    /** The snapshot whose rows {@link #get} answers from, -1 before the first. */
    public long snapshotId() {
        return snapshotId;
    }

    /** Bytes held in memory now (for metrics and the benchmark). */
    public long memoryBytes() {
        return buckets.values().stream().mapToLong(HeldBucket::memoryBytes).sum();
    }

    /** Bytes held on local disk now. */
    public long diskBytes() {
        return buckets.values().stream().mapToLong(HeldBucket::diskBytes).sum();
    }

    @Override
    public void close() throws IOException {
        BucketLoader.Loading loading = first;
        if (loading != null) {
            loading.cancel();
        }
        synchronized (buckets) {
            closed = true;
        }
        install(Map.of(), new HashSet<>(buckets.keySet()));
    }
}
