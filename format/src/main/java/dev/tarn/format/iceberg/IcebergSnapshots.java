package dev.tarn.format.iceberg;

import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.FileContent;
import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.ManifestEntry.FileId;
import dev.tarn.format.manifest.ManifestEntry.FileKind;
import dev.tarn.format.schema.LsmOptions;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.schema.TableSchema.TableKind;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.snapshot.Snapshot.CommitKind;
import dev.tarn.format.table.TableContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import org.apache.flink.configuration.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestWriter;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TarnSnapshots;

/**
 * Builds the Iceberg table metadata of a Tarn snapshot (SPEC.md, "Iceberg metadata"): from the
 * Iceberg metadata of the snapshot before it, reusing its manifests (an append writes one manifest
 * of its new files; a commit that deletes files rewrites only the manifests that hold them), or
 * whole from the snapshot's live files when there is no valid metadata before it.
 *
 * <p>Which files an Iceberg reader sees: every live data file of an append table; of a primary-key
 * table, every data file whose writer maintained deletion vectors, with the vectors as Iceberg v3
 * deletion vectors, and the files of the last level (a full compaction's output) otherwise.
 */
final class IcebergSnapshots {

    /**
     * Iceberg's writer properties for the delete manifests it writes for Tarn: uncompressed, as
     * Tarn's own manifests and manifest lists (format/SPEC.md section 19).
     */
    private static final Map<String, String> UNCOMPRESSED =
            Map.of(TableProperties.AVRO_COMPRESSION, "uncompressed");

    /** Format version of tables without deletion vectors; those with them need version 3. */
    private static final int FORMAT_VERSION = 2;

    private static final int VECTOR_FORMAT_VERSION = 3;

    private final IcebergTable iceberg;
    private final TableContext table;
    private final IcebergFiles files;
    private final IcebergManifestMerge merge;
    private final int maxLevel;

    /** The manifest and list writers and shapes every committer of the table instance shares. */
    private final IcebergWriters writers;

    IcebergSnapshots(IcebergTable iceberg) {
        this.iceberg = iceberg;
        this.table = iceberg.context();
        this.files = new IcebergFiles(table);
        this.writers = table.shared(IcebergWriters.class, IcebergWriters::new);
        this.merge = new IcebergManifestMerge(iceberg, writers);
        this.maxLevel = Configuration.fromMap(table.options()).get(LsmOptions.NUM_LEVELS) - 1;
    }

    /**
     * The metadata of {@code snapshot}, whose parent's live files are {@code parentFiles} and whose
     * vectors are {@code vectors}: built from {@code base} (the valid metadata of its parent) if
     * there is one, else whole.
     *
     * @param delta what {@code snapshot} changed against its parent
     * @param vectorsChanged whether the vectors differ from the parent's
     */
    IcebergVersion build(
            @Nullable IcebergVersion base,
            Snapshot snapshot,
            Map<FileId, ManifestEntry> parentFiles,
            List<ManifestEntry> delta,
            Map<FileId, DeletionFile> vectors,
            boolean vectorsChanged)
            throws IOException {
        // The snapshot's live files, made only where needed: copying the parent's map on every
        // append would make an append's cost grow with the table's file count.
        Supplier<Map<FileId, ManifestEntry>> live = new LiveFiles(parentFiles, delta);
        boolean usesVectors = usesVectors(live);
        List<Long> expired = base == null ? List.of() : base.expired(expiredBefore());
        TableMetadata shaped = shape(base, snapshot, usesVectors);
        long id = snapshot.id();
        List<ManifestFile> manifests = new ArrayList<>();
        boolean deletes = false;
        if (base == null) {
            List<ManifestEntry> included = new ArrayList<>();
            for (ManifestEntry e : live.get().values()) {
                if (included(e)) {
                    included.add(e);
                }
            }
            if (!included.isEmpty()) {
                manifests.add(writeData(included, shaped, id));
            }
        } else {
            Map<String, ManifestEntry> added = new LinkedHashMap<>();
            Set<String> deleted = new HashSet<>();
            for (ManifestEntry e : delta) {
                if (!included(e)) {
                    continue;
                }
                String location = files.location(e.fileId());
                if (e.kind() == FileKind.ADD) {
                    added.put(location, e);
                } else {
                    deleted.add(location);
                }
            }
            deletes = !deleted.isEmpty();
            List<ManifestFile> parentManifests = base.manifests();
            for (ManifestFile m : parentManifests) {
                if (m.content() != ManifestContent.DATA) {
                    continue;
                }
                if (!m.hasAddedFiles() && !m.hasExistingFiles()) {
                    // Only files an earlier snapshot deleted, which that snapshot showed: dropped,
                    // as Iceberg's own commits drop them.
                    continue;
                }
                manifests.add(m);
            }
            if (!deleted.isEmpty()) {
                manifests =
                        TarnSnapshots.rewriteWithout(
                                manifests,
                                iceberg.io(),
                                shaped.specsById(),
                                deleted,
                                spec -> writers.manifests(shaped.formatVersion(), spec),
                                () -> iceberg.io().newOutputFile(iceberg.newManifest()),
                                id);
            }
            if (!added.isEmpty()) {
                manifests.add(writeData(List.copyOf(added.values()), shaped, id));
            }
            manifests = merge.apply(manifests, shaped, id);
            if (!(usesVectors && (vectorsChanged || deletes))) {
                for (ManifestFile m : parentManifests) {
                    if (m.content() == ManifestContent.DELETES) {
                        manifests.add(m);
                    }
                }
            }
        }
        if (usesVectors && (base == null || vectorsChanged || deletes)) {
            ManifestFile vectorManifest = writeVectors(live.get(), vectors, shaped, id);
            if (vectorManifest != null) {
                manifests.add(vectorManifest);
            }
        }
        Map<String, String> summary = new HashMap<>();
        summary.put(IcebergTable.DELTA_LIST_PROPERTY, snapshot.deltaManifestList());
        summary.put("tarn.commit-kind", snapshot.commit().kind().name());
        TarnSnapshots.Written next =
                TarnSnapshots.write(
                        writers.lists(shaped.formatVersion()),
                        iceberg.io().newOutputFile(iceberg.newManifestList(id)),
                        id,
                        base == null ? null : base.current().snapshotId(),
                        snapshot.commit().timeMillis(),
                        operation(snapshot, deletes, usesVectors && vectorsChanged),
                        summary,
                        shaped.currentSchemaId(),
                        manifests,
                        shaped.formatVersion() >= VECTOR_FORMAT_VERSION
                                ? shaped.nextRowId()
                                : null);
        // Over the parent's head as it is, the parent's file goes in the metadata log here; over
        // a head shaped anew, it went in when that was built.
        TableMetadata.Builder head =
                (base != null && shaped == base.head()
                                ? base.next()
                                : TableMetadata.buildFrom(shaped))
                        .setBranchSnapshot(next.snapshot(), SnapshotRef.MAIN_BRANCH);
        if (base == null) {
            return new IcebergVersion(head.build(), List.of(), List.of(), next.manifests(), null);
        }
        // The parent becomes an earlier snapshot, kept as text beside the head.
        head.removeSnapshots(List.of(base.current().snapshotId()));
        return base.then(head.build(), expired, next.manifests());
    }

    /** The metadata of {@code snapshot} written whole, with that snapshot alone. */
    IcebergVersion whole(Snapshot snapshot) throws IOException {
        return build(
                null,
                snapshot,
                table.snapshotReader().liveFiles(snapshot),
                List.of(),
                table.snapshotReader().vectors(snapshot),
                false);
    }

    /**
     * The table part of the metadata (format version, schema, spec, properties) for {@code
     * snapshot}, over {@code base} or new.
     */
    private TableMetadata shape(
            @Nullable IcebergVersion parent, Snapshot snapshot, boolean usesVectors) {
        TableMetadata base = parent == null ? null : parent.head();
        int version = usesVectors ? VECTOR_FORMAT_VERSION : FORMAT_VERSION;
        Shape shape = shapeOf(table.schema(snapshot.schemaId()));
        TableMetadata.Builder builder;
        int lastColumnId = shape.tarn().highestFieldId();
        if (base == null) {
            builder =
                    TableMetadata.buildFromEmpty(version)
                            .assignUUID(uuid())
                            .setLocation(table.location().toString());
        } else if (unchanged(base, shape, version, lastColumnId)) {
            return base; // Most commits: building it anew would copy it for nothing.
        } else {
            builder = parent.next();
            if (base.formatVersion() < version) {
                builder.upgradeFormatVersion(version);
            }
            lastColumnId = Math.max(lastColumnId, base.lastColumnId());
        }
        return builder.setCurrentSchema(shape.schema(), lastColumnId)
                .setDefaultPartitionSpec(shape.spec())
                .setDefaultSortOrder(SortOrder.unsorted())
                .setProperties(shape.properties())
                .build();
    }

    /** Whether {@code base} has the shape, format version and last column id already. */
    private static boolean unchanged(
            TableMetadata base, Shape shape, int version, int lastColumnId) {
        if (base.formatVersion() < version
                || base.lastColumnId() < lastColumnId
                || !base.schema().sameSchema(shape.schema())
                || !base.spec().compatibleWith(shape.spec())
                || !base.sortOrder().isUnsorted()) {
            return false;
        }
        for (Map.Entry<String, String> p : shape.properties().entrySet()) {
            if (!p.getValue().equals(base.properties().get(p.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /** The Iceberg schema, partition spec and table properties of a Tarn schema version. */
    record Shape(
            TableSchema tarn, Schema schema, PartitionSpec spec, Map<String, String> properties) {}

    /**
     * The shape of {@code tarn}: made once per schema version and table instance, as schema
     * versions never change.
     */
    private Shape shapeOf(TableSchema tarn) {
        return writers.shape(tarn, this::makeShape);
    }

    private Shape makeShape(TableSchema tarn) {
        Schema schema = IcebergSchemas.schema(tarn);
        Map<String, String> properties = new HashMap<>();
        properties.put(
                TableProperties.DEFAULT_NAME_MAPPING, IcebergSchemas.nameMapping(schemas(tarn)));
        properties.put(TableProperties.MANIFEST_MERGE_ENABLED, "false");
        return new Shape(tarn, schema, IcebergSchemas.spec(schema, tarn), Map.copyOf(properties));
    }

    /**
     * Iceberg snapshots before this id are of Tarn snapshots an expiration removed: as far as this
     * process knows without I/O (an expiration in another process is caught up by the next one that
     * runs, SPEC.md "Iceberg metadata").
     */
    private long expiredBefore() {
        return table.snapshotManager().knownEarliest();
    }

    /** The table's Iceberg UUID: one per table location, so a rebuild keeps it. */
    private String uuid() {
        return UUID.nameUUIDFromBytes(table.location().toString().getBytes(StandardCharsets.UTF_8))
                .toString();
    }

    /** Every schema version up to {@code current}, oldest first (those that exist). */
    private List<TableSchema> schemas(TableSchema current) {
        List<TableSchema> all = new ArrayList<>();
        for (long id = 0; id < current.id(); id++) {
            try {
                all.add(table.schema(id));
            } catch (RuntimeException e) {
                // Schema ids need not be dense; the current one is all that must exist.
            }
        }
        all.add(current);
        return all;
    }

    /** Whether Iceberg readers see {@code entry}'s file (see the class comment). */
    private boolean included(ManifestEntry entry) {
        if (entry.file().content() != FileContent.DATA) {
            return false;
        }
        return table.kind() == TableKind.APPEND
                || table.vectorMaintained(entry.file())
                || entry.file().level() == maxLevel;
    }

    /** The parent's live files with a delta applied, made once, when first asked for. */
    private static final class LiveFiles implements Supplier<Map<FileId, ManifestEntry>> {

        private final Map<FileId, ManifestEntry> parentFiles;
        private final List<ManifestEntry> delta;
        @Nullable private Map<FileId, ManifestEntry> live;

        LiveFiles(Map<FileId, ManifestEntry> parentFiles, List<ManifestEntry> delta) {
            this.parentFiles = parentFiles;
            this.delta = delta;
        }

        @Override
        public Map<FileId, ManifestEntry> get() {
            if (live == null) {
                live = new HashMap<>(parentFiles);
                for (ManifestEntry e : delta) {
                    if (e.kind() == FileKind.ADD) {
                        live.put(e.fileId(), e);
                    } else {
                        live.remove(e.fileId());
                    }
                }
            }
            return live;
        }
    }

    /** Whether any included file of a primary-key table is read with deletion vectors. */
    private boolean usesVectors(Supplier<Map<FileId, ManifestEntry>> live) {
        if (table.kind() == TableKind.APPEND) {
            return false;
        }
        if (table.config().lsm().deletionVectors()) {
            return true;
        }
        for (ManifestEntry e : live.get().values()) {
            if (table.vectorMaintained(e.file())) {
                return true;
            }
        }
        return false;
    }

    private static String operation(Snapshot snapshot, boolean deletes, boolean vectors) {
        if (snapshot.commit().kind() == CommitKind.COMPACT) {
            return DataOperations.REPLACE;
        }
        return deletes || vectors || snapshot.commit().kind() == CommitKind.OVERWRITE
                ? DataOperations.OVERWRITE
                : DataOperations.APPEND;
    }

    private ManifestFile writeData(List<ManifestEntry> entries, TableMetadata shaped, long id)
            throws IOException {
        List<DataFile> added = new ArrayList<>(entries.size());
        for (ManifestEntry e : entries) {
            added.add(files.dataFile(e, shaped.spec(), shaped.schema()));
        }
        return writers.manifests(shaped.formatVersion(), shaped.spec())
                .write(iceberg.io().newOutputFile(iceberg.newManifest()), id, added);
    }

    /**
     * The delete manifest of every vector of the snapshot's included files, or null if none: all
     * added by this snapshot, so they apply to every data file before it.
     */
    @Nullable
    private ManifestFile writeVectors(
            Map<FileId, ManifestEntry> live,
            Map<FileId, DeletionFile> vectors,
            TableMetadata shaped,
            long id)
            throws IOException {
        PartitionSpec spec = shaped.spec();
        List<DeleteFile> deletes = new ArrayList<>();
        for (Map.Entry<FileId, DeletionFile> v : vectors.entrySet()) {
            ManifestEntry data = live.get(v.getKey());
            if (data != null && included(data)) {
                deletes.add(
                        files.vector(
                                files.dataFile(data, spec, shaped.schema()), v.getValue(), spec));
            }
        }
        if (deletes.isEmpty()) {
            return null;
        }
        ManifestWriter<DeleteFile> writer =
                ManifestFiles.writeDeleteManifest(
                        shaped.formatVersion(),
                        spec,
                        iceberg.io().newOutputFile(iceberg.newManifest()),
                        id,
                        UNCOMPRESSED);
        try (writer) {
            deletes.forEach(writer::add);
        }
        return writer.toManifestFile();
    }
}
