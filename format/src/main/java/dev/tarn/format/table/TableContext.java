package dev.tarn.format.table;

import dev.tarn.format.deletion.IndexFiles;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.io.TablePaths;
import dev.tarn.format.manifest.BucketId;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.IndexManifest;
import dev.tarn.format.manifest.ManifestFile;
import dev.tarn.format.manifest.ManifestList;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.schema.SchemaManager;
import dev.tarn.format.schema.TableConfig;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.schema.TableSchema.TableKind;
import dev.tarn.format.snapshot.SnapshotCommit;
import dev.tarn.format.snapshot.SnapshotManager;
import dev.tarn.format.snapshot.SnapshotReader;
import dev.tarn.format.snapshot.Tags;
import java.io.Serializable;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.core.fs.Path;

/**
 * What the seams below the {@code Table} façade (scan, read, write, commit, maintenance) need of
 * one table: its name, schema and options (read once into a {@link TableConfig}), where its files
 * live ({@link TablePaths}) and the file I/O that reaches them, the atomic publish step, and the
 * managers and reader of its snapshots and schemas. Immutable and serializable, so Flink can ship
 * it to tasks; it holds no open resources, and the managers it makes are cached per instance.
 */
public final class TableContext implements Serializable {

    private static final long serialVersionUID = 1L;

    private final FileIO io;
    private final TablePaths paths;
    private final String name;
    private final TableSchema schema;
    private final Map<String, String> options;
    private final SnapshotCommit publisher;
    private transient TableConfig config;
    private transient SnapshotManager snapshots;
    private transient Map<Long, TableSchema> schemas;
    private transient Map<Long, Boolean> vectorMaintained;
    private transient Map<Class<?>, Object> shared;

    /**
     * @param options the schema's options with a query's options over them
     * @throws IllegalArgumentException naming the table, the option and the value if an option is
     *     unknown or invalid
     */
    public TableContext(
            FileIO io,
            TablePaths paths,
            String name,
            TableSchema schema,
            Map<String, String> options) {
        this.io = io;
        this.paths = paths;
        this.name = name;
        this.schema = schema;
        this.options = Map.copyOf(options);
        this.publisher =
                SnapshotCommit.withLock(
                        SnapshotCommit.forLocation(io, paths.location()),
                        io,
                        name,
                        paths.location(),
                        this.options);
        this.config = TableConfig.of(name, this.options);
    }

    /** How errors name the table, e.g. {@code db.orders}. */
    public String name() {
        return name;
    }

    public FileIO io() {
        return io;
    }

    public TablePaths paths() {
        return paths;
    }

    public Path location() {
        return paths.location();
    }

    public TableSchema schema() {
        return schema;
    }

    /**
     * Schema version {@code id} of the table (that of a data file, say): this context's own, or
     * read once from its file and then cached, as schema files never change.
     */
    public TableSchema schema(long id) {
        if (id == schema.id()) {
            return schema;
        }
        if (schemas == null) {
            schemas = new ConcurrentHashMap<>();
        }
        return schemas.computeIfAbsent(id, i -> schemaManager().schema(i));
    }

    /**
     * Whether {@code file} is vector-maintained (SPEC.md, "Reads with vectors"): the schema it was
     * written with has {@code deletion-vectors.enabled}, so its writer marked the previous row of
     * every key it changed as deleted, in whichever file of the bucket that row was.
     */
    public boolean vectorMaintained(DataFile file) {
        if (vectorMaintained == null) {
            vectorMaintained = new ConcurrentHashMap<>();
        }
        return vectorMaintained.computeIfAbsent(
                file.schemaId(),
                id -> TableConfig.of(name, schema(id).options()).lsm().deletionVectors());
    }

    public TableKind kind() {
        return schema.kind();
    }

    /** The schema's options with the query's over them. */
    public Map<String, String> options() {
        return options;
    }

    public TableConfig config() {
        if (config == null) {
            config = TableConfig.of(name, options);
        }
        return config;
    }

    public SnapshotCommit publisher() {
        return publisher;
    }

    /**
     * The table's snapshot manager, one per instance (synchronized: a committer and its background
     * expiration share it, and with it what each learns of the table's first and last snapshot).
     */
    public synchronized SnapshotManager snapshotManager() {
        if (snapshots == null) {
            snapshots = new SnapshotManager(io, paths, name, publisher);
        }
        return snapshots;
    }

    /**
     * What the seams built on this instance share across their own instances in one process, made
     * by {@code create} on first use: e.g. the Iceberg metadata a committer wrote last, on which
     * the next commit through any committer of this table (a compaction's) builds without reading
     * it back. One value per type; the value must be safe to use from several threads.
     */
    public synchronized <T> T shared(Class<T> type, java.util.function.Supplier<T> create) {
        if (shared == null) {
            shared = new java.util.HashMap<>();
        }
        return type.cast(shared.computeIfAbsent(type, t -> create.get()));
    }

    /** The table's tags: named snapshots kept through expiration. */
    public Tags tags() {
        return new Tags(io, paths, name, publisher);
    }

    public SchemaManager schemaManager() {
        return new SchemaManager(io, paths, name, publisher);
    }

    public ManifestFile manifestFile() {
        return new ManifestFile(io, paths);
    }

    public ManifestList manifestList() {
        return new ManifestList(io, paths);
    }

    /** Index files: the deletion vectors themselves (SPEC.md, "Deletion vectors"). */
    public IndexFiles indexFiles() {
        return new IndexFiles(io, paths);
    }

    /** Index manifests: the deletion vectors of snapshots (SPEC.md, "Deletion vectors"). */
    public IndexManifest indexManifest() {
        return new IndexManifest(io, paths);
    }

    public SnapshotReader snapshotReader() {
        return new SnapshotReader(
                snapshotManager(), manifestList(), manifestFile(), indexManifest());
    }

    /** The directory of one bucket of one partition. */
    public Path bucketPath(Partition partition, int bucket) {
        return paths.bucketDir(partition.path(schema.partitionKeys()), bucket);
    }

    public Path bucketPath(BucketId bucket) {
        return bucketPath(bucket.partition(), bucket.bucket());
    }

    @Override
    public String toString() {
        return name + " at " + paths.location();
    }
}
