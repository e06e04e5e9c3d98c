package org.apache.iceberg;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.avro.file.DataFileConstants;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.EncoderFactory;
import org.apache.iceberg.avro.AvroSchemaUtil;
import org.apache.iceberg.avro.InternalWriter;
import org.apache.iceberg.io.OutputFile;

/**
 * Writes a snapshot's manifest list as Iceberg's {@link ManifestListWriter} does for format
 * versions 2 and 3 (the same Avro schema, file metadata and record writer; the file metadata in the
 * order Avro's writer puts it; one data block) but uncompressed (Avro's null codec, where Iceberg's
 * writer always deflates), with the Avro schema's text and the record writer made once per writer
 * instead of once per list, which cost a commit more than its few dozen entries. A list is written
 * at every commit and names every manifest of the snapshot, up to a hundred small ones before they
 * are merged: deflating it at Iceberg's level cost a commit more than encoding it. The record of a
 * manifest the last list named, with its sequence numbers (and first row id) assigned, is copied
 * from that list rather than encoded again: a list differs from its parent's by a manifest or two,
 * and encoding the others again was most of the cost of writing it. A table's committers share it;
 * safe for concurrent use (one list at a time).
 */
public final class TarnManifestListWriter {

    private final int formatVersion;
    private final DatumWriter<Object> datumWriter;
    private final byte[] avroSchema;
    private final byte[] icebergSchema;
    private final Block block = new Block(16384);
    private BinaryEncoder encoder;

    /** The records of the last list written, by manifest location. */
    private Map<String, byte[]> records = Map.of();

    @SuppressWarnings("unchecked")
    public TarnManifestListWriter(int formatVersion) {
        if (formatVersion != 2 && formatVersion != 3) {
            throw new IllegalArgumentException(
                    "Cannot write manifest lists of Iceberg format version " + formatVersion);
        }
        this.formatVersion = formatVersion;
        Schema schema =
                formatVersion == 2
                        ? V2Metadata.MANIFEST_LIST_SCHEMA
                        : V3Metadata.MANIFEST_LIST_SCHEMA;
        org.apache.avro.Schema avro = AvroSchemaUtil.convert(schema, "manifest_file");
        this.datumWriter = (DatumWriter<Object>) (DatumWriter<?>) InternalWriter.create(avro);
        this.avroSchema = avro.toString().getBytes(StandardCharsets.UTF_8);
        this.icebergSchema = SchemaParser.toJson(schema).getBytes(StandardCharsets.UTF_8);
    }

    public int formatVersion() {
        return formatVersion;
    }

    /**
     * Writes the list of {@code manifests} of snapshot {@code snapshotId} (its sequence number too)
     * to {@code out}.
     *
     * @param firstRowId the table's next row id before the snapshot (format version 3), else null
     * @return the next row id after it (format version 3), else null
     */
    public synchronized Long write(
            OutputFile out,
            long snapshotId,
            Long parentId,
            Long firstRowId,
            List<ManifestFile> manifests)
            throws IOException {
        // What ManifestListWriter.V2Writer/V3Writer and Avro.WriteBuilder put in the metadata, in
        // a hash map as Avro's DataFileWriter holds it and in its order, so they come out alike.
        Map<String, byte[]> meta = new HashMap<>();
        meta.put(DataFileConstants.CODEC, bytes(DataFileConstants.NULL_CODEC));
        meta.put("snapshot-id", bytes(String.valueOf(snapshotId)));
        meta.put("parent-snapshot-id", bytes(String.valueOf(parentId)));
        meta.put("sequence-number", bytes(String.valueOf(snapshotId)));
        if (formatVersion == 3) {
            meta.put("first-row-id", bytes(String.valueOf(firstRowId)));
        }
        meta.put("format-version", bytes(String.valueOf(formatVersion)));
        meta.put("iceberg.schema", icebergSchema);
        meta.put(DataFileConstants.SCHEMA, avroSchema);
        byte[] sync = new byte[16];
        ThreadLocalRandom.current().nextBytes(sync);

        block.reset();
        encoder = EncoderFactory.get().directBinaryEncoder(block, encoder);
        Map<String, byte[]> written = new HashMap<>(manifests.size() * 2);
        Long nextRowId = firstRowId;
        V2Metadata.ManifestFileWrapper v2 =
                formatVersion == 2
                        ? new V2Metadata.ManifestFileWrapper(snapshotId, snapshotId)
                        : null;
        V3Metadata.ManifestFileWrapper v3 =
                formatVersion == 3
                        ? new V3Metadata.ManifestFileWrapper(snapshotId, snapshotId)
                        : null;
        for (ManifestFile m : manifests) {
            byte[] known = assigned(m) ? records.get(m.path()) : null;
            if (known != null) {
                block.writeBytes(known);
                written.put(m.path(), known);
                continue;
            }
            int start = block.size();
            if (v2 != null) {
                datumWriter.write(v2.wrap(m), encoder);
            } else if (m.content() != ManifestContent.DATA || m.firstRowId() != null) {
                datumWriter.write(v3.wrap(m, null), encoder);
            } else {
                // As ManifestListWriter.V3Writer.prepare assigns first row ids.
                datumWriter.write(v3.wrap(m, nextRowId), encoder);
                nextRowId += m.existingRowsCount() + m.addedRowsCount();
            }
            // The direct encoder buffers nothing: the record is in the block. Listed again, the
            // manifest has what was assigned here (TarnSnapshots.asListed), so the same record.
            written.put(m.path(), block.from(start));
        }
        encoder.flush();

        ByteArrayOutputStream file = new ByteArrayOutputStream(block.size() + 4096);
        BinaryEncoder head = EncoderFactory.get().directBinaryEncoder(file, null);
        head.writeFixed(DataFileConstants.MAGIC);
        head.writeMapStart();
        head.setItemCount(meta.size());
        for (Map.Entry<String, byte[]> e : meta.entrySet()) {
            head.startItem();
            head.writeString(e.getKey());
            head.writeBytes(e.getValue());
        }
        head.writeMapEnd();
        head.writeFixed(sync);
        if (!manifests.isEmpty()) {
            head.writeLong(manifests.size());
            head.writeLong(block.size());
            head.flush();
            block.writeTo(file);
            head.writeFixed(sync);
        }
        head.flush();
        try (OutputStream stream = out.create()) {
            file.writeTo(stream);
        }
        records = written;
        return formatVersion == 3 ? nextRowId : null;
    }

    /**
     * Whether {@code m}'s record is written as it is, nothing assigned to it: its sequence numbers,
     * and in format version 3 a data manifest's first row id, are set.
     */
    private boolean assigned(ManifestFile m) {
        return m.sequenceNumber() != ManifestWriter.UNASSIGNED_SEQ
                && m.minSequenceNumber() != ManifestWriter.UNASSIGNED_SEQ
                && (formatVersion == 2
                        || m.content() != ManifestContent.DATA
                        || m.firstRowId() != null);
    }

    /** The records of a list as they are encoded, each one's bytes to be copied out. */
    private static final class Block extends ByteArrayOutputStream {

        Block(int size) {
            super(size);
        }

        /** The bytes from {@code start} to the end. */
        byte[] from(int start) {
            return Arrays.copyOfRange(buf, start, count);
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
