package org.apache.iceberg;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.EncoderFactory;
import org.apache.iceberg.avro.AvroSchemaUtil;
import org.apache.iceberg.avro.InternalWriter;
import org.apache.iceberg.io.OutputFile;

/**
 * Writes data manifests byte for byte as Iceberg's {@link ManifestWriter} does for format versions
 * 2 and 3 with {@code write.avro.compression-codec} = {@code uncompressed} (the same Avro schema,
 * file metadata and record writer, Avro's null codec, one data block), save the Avro sync marker,
 * which is chosen once per writer rather than per file: the manifest of the files one commit adds,
 * and a manifest rewritten with files kept as existing and files deleted (a commit that deletes
 * files, the merge of small manifests). Iceberg's writer converts the schemas, writes the Avro
 * header and starts a codec for every file, which cost a commit that adds a file or two more than
 * the entries do; this writer does that once per partition spec, schema and format version ({@link
 * #key}), and a table's committers share it. Uncompressed, not Iceberg's default gzip: deflating a
 * manifest at Iceberg's level cost a commit more than the rest of its manifest did (and a merge of
 * a hundred manifests many times that), for files of a few kilobytes that every Iceberg reader
 * reads either way. Safe for concurrent use (one file at a time).
 */
public final class TarnManifestWriter {

    private final int formatVersion;
    private final PartitionSpec spec;
    private final DatumWriter<Object> records;
    private final byte[] header;
    private final byte[] sync;
    private final GenericManifestEntry<DataFile> reused;
    private final EntryRecord record;
    private ByteArrayOutputStream block = new ByteArrayOutputStream(4096);
    private BinaryEncoder encoder;

    /**
     * A block buffer grown past this is dropped after its file: the writer lives as long as its
     * table instance, and a rewrite of a large table's manifest would otherwise keep its size.
     */
    private static final int KEPT_BLOCK_BYTES = 1 << 20;

    /** The file being written: what its manifest file records, as Iceberg's writer counts it. */
    private PartitionSummary stats;

    private int addedFiles;
    private long addedRows;
    private int existingFiles;
    private long existingRows;
    private int deletedFiles;
    private long deletedRows;
    @Nullable private Long minDataSequence;

    @SuppressWarnings("unchecked")
    public TarnManifestWriter(int formatVersion, PartitionSpec spec) throws IOException {
        if (formatVersion != 2 && formatVersion != 3) {
            throw new IllegalArgumentException(
                    "Cannot write manifests of Iceberg format version " + formatVersion);
        }
        this.formatVersion = formatVersion;
        this.spec = spec;
        Schema entries =
                formatVersion == 2
                        ? V2Metadata.entrySchema(spec.partitionType())
                        : V3Metadata.entrySchema(spec.partitionType());
        org.apache.avro.Schema avro = AvroSchemaUtil.convert(entries, "manifest_entry");
        this.records = (DatumWriter<Object>) (DatumWriter<?>) InternalWriter.create(avro);
        // The header as Avro's writer writes it for Iceberg's (Avro.WriteBuilder and
        // ManifestWriter.V2Writer/V3Writer.newAppender): every file of this writer starts with it.
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        DataFileWriter<Object> writer = new DataFileWriter<>(records);
        writer.setCodec(CodecFactory.nullCodec());
        writer.setMeta("schema", SchemaParser.toJson(spec.schema()));
        writer.setMeta("partition-spec", PartitionSpecParser.toJsonFields(spec));
        writer.setMeta("partition-spec-id", String.valueOf(spec.specId()));
        writer.setMeta("format-version", String.valueOf(formatVersion));
        writer.setMeta("content", "data");
        writer.setMeta("iceberg.schema", SchemaParser.toJson(entries));
        writer.create(avro, head);
        writer.flush();
        this.header = head.toByteArray();
        this.sync = Arrays.copyOfRange(header, header.length - 16, header.length);
        this.reused =
                new GenericManifestEntry<>(V1Metadata.entrySchema(spec.partitionType()).asStruct());
        this.record = new EntryRecord(formatVersion);
    }

    /**
     * The record of an entry as Iceberg's V2 and V3 entry wrappers give it to the record writer
     * (the same five fields: status, snapshot id, data and file sequence numbers, the file through
     * the format version's file wrapper), made once per writer: Iceberg's wrapper derives its entry
     * schema anew for every manifest. An appended entry's sequence numbers are null (the manifest
     * list assigns them), an existing or deleted entry's those it was added with.
     */
    private static final class EntryRecord implements StructLike {

        private final V2Metadata.DataFileWrapper<DataFile> v2Files;
        private final V3Metadata.DataFileWrapper<DataFile> v3Files;
        private ManifestEntry<DataFile> entry;

        EntryRecord(int formatVersion) {
            this.v2Files = formatVersion == 2 ? new V2Metadata.DataFileWrapper<>() : null;
            this.v3Files = formatVersion == 2 ? null : new V3Metadata.DataFileWrapper<>();
        }

        EntryRecord wrap(ManifestEntry<DataFile> written) {
            this.entry = written;
            return this;
        }

        @Override
        public int size() {
            return 5;
        }

        @Override
        public <T> void set(int pos, T value) {
            throw new UnsupportedOperationException("The entry record is written, not set");
        }

        @Override
        public <T> T get(int pos, Class<T> javaClass) {
            Object value =
                    switch (pos) {
                        case 0 -> entry.status().id();
                        case 1 -> entry.snapshotId();
                        case 2 -> entry.dataSequenceNumber();
                        case 3 -> entry.fileSequenceNumber();
                        case 4 ->
                                v2Files != null
                                        ? v2Files.wrap(entry.file())
                                        : v3Files.wrap(entry.file());
                        default ->
                                throw new UnsupportedOperationException(
                                        "No field " + pos + " in a manifest entry");
                    };
            return javaClass.cast(value);
        }
    }

    /** What the files of a writer depend on: writers of equal keys write the same bytes. */
    public static String key(int formatVersion, PartitionSpec spec) {
        return formatVersion
                + "/"
                + spec.specId()
                + "/"
                + PartitionSpecParser.toJsonFields(spec)
                + "/"
                + SchemaParser.toJson(spec.schema());
    }

    /**
     * Writes the manifest of {@code added}, each added by snapshot {@code snapshotId}, to {@code
     * out}, and returns it as Iceberg's writer would ({@link ManifestWriter#toManifestFile}); its
     * entries are kept in memory ({@link TarnManifestEntries}) for the commits that rewrite it.
     */
    public synchronized ManifestFile write(OutputFile out, long snapshotId, List<DataFile> added)
            throws IOException {
        if (added.isEmpty()) {
            throw new IllegalArgumentException(
                    "Cannot write an empty manifest to " + out.location());
        }
        start();
        for (DataFile file : added) {
            add(reused.wrapAppend(snapshotId, file));
        }
        ManifestFile written = finish(out, snapshotId);
        TarnManifestEntries.added(formatVersion, written, added);
        return written;
    }

    /**
     * Writes a manifest of snapshot {@code snapshotId} to {@code out} holding {@code existing} as
     * existing files and {@code deleted} as files this snapshot deletes, each with the snapshot and
     * sequence numbers it was added with (as Iceberg's {@link ManifestWriter#existing} and {@link
     * ManifestWriter#delete(ContentFile, long, Long)} write them); keeps its live entries in
     * memory.
     */
    public synchronized ManifestFile rewrite(
            OutputFile out,
            long snapshotId,
            List<TarnManifestEntries.Live> existing,
            List<TarnManifestEntries.Live> deleted)
            throws IOException {
        if (existing.isEmpty() && deleted.isEmpty()) {
            throw new IllegalArgumentException(
                    "Cannot write an empty manifest to " + out.location());
        }
        start();
        for (TarnManifestEntries.Live e : existing) {
            add(reused.wrapExisting(e.snapshotId(), e.dataSequence(), e.fileSequence(), e.file()));
        }
        for (TarnManifestEntries.Live e : deleted) {
            add(reused.wrapDelete(snapshotId, e.dataSequence(), e.fileSequence(), e.file()));
        }
        ManifestFile written = finish(out, snapshotId);
        TarnManifestEntries.written(written, existing);
        return written;
    }

    private void start() {
        stats = new PartitionSummary(spec);
        addedFiles = 0;
        addedRows = 0;
        existingFiles = 0;
        existingRows = 0;
        deletedFiles = 0;
        deletedRows = 0;
        minDataSequence = null;
        block.reset();
        encoder = EncoderFactory.get().directBinaryEncoder(block, encoder);
    }

    /** Counts and encodes {@code entry} as Iceberg's {@code ManifestWriter.addEntry} does. */
    private void add(ManifestEntry<DataFile> entry) throws IOException {
        long rows = entry.file().recordCount();
        switch (entry.status()) {
            case ADDED -> {
                addedFiles++;
                addedRows += rows;
            }
            case EXISTING -> {
                existingFiles++;
                existingRows += rows;
            }
            case DELETED -> {
                deletedFiles++;
                deletedRows += rows;
            }
        }
        stats.update(entry.file().partition());
        Long sequence = entry.dataSequenceNumber();
        if (entry.isLive()
                && sequence != null
                && (minDataSequence == null || sequence < minDataSequence)) {
            minDataSequence = sequence;
        }
        records.write(record.wrap(entry), encoder);
    }

    /** Writes the file of the entries added since {@link #start} and returns it as a manifest. */
    private ManifestFile finish(OutputFile out, long snapshotId) throws IOException {
        encoder.flush();
        int entries = addedFiles + existingFiles + deletedFiles;
        ByteArrayOutputStream file = new ByteArrayOutputStream(header.length + block.size() + 40);
        file.write(header);
        BinaryEncoder counts = EncoderFactory.get().directBinaryEncoder(file, null);
        counts.writeLong(entries);
        counts.writeLong(block.size());
        counts.flush();
        block.writeTo(file);
        file.write(sync);
        try (OutputStream stream = out.create()) {
            file.writeTo(stream);
        }
        if (block.size() > KEPT_BLOCK_BYTES) {
            block = new ByteArrayOutputStream(4096);
            encoder = null;
        }
        return new GenericManifestFile(
                out.location(),
                file.size(),
                spec.specId(),
                ManifestContent.DATA,
                ManifestWriter.UNASSIGNED_SEQ,
                minDataSequence != null ? minDataSequence : ManifestWriter.UNASSIGNED_SEQ,
                snapshotId,
                stats.summaries(),
                null,
                addedFiles,
                addedRows,
                existingFiles,
                existingRows,
                deletedFiles,
                deletedRows,
                null);
    }
}
