package dev.tarn.format.iceberg;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.JsonGeneratorDelegate;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.function.Function;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.util.JsonUtil;

/**
 * Writes an {@link IcebergVersion} as the {@code v<N>.metadata.json} Iceberg reads: Iceberg's own
 * {@link TableMetadataParser} writes the head (every field, the current snapshot and its log
 * entry), and the earlier snapshots' stored JSON and their log entries go in before the current
 * ones in the {@code snapshots} and {@code snapshot-log} arrays. The file is what the parser would
 * write for the whole metadata, in the same order, while the work per commit does not grow with the
 * snapshots kept but for a copy of their bytes: their JSON was written and encoded once.
 */
final class IcebergMetadataJson {

    private IcebergMetadataJson() {}

    /**
     * Writes the version's metadata file to {@code out}, in UTF-8, without closing it: the earlier
     * snapshots' stored bytes go straight to {@code out}, never gathered into one array.
     */
    static void write(IcebergVersion version, OutputStream out) throws IOException {
        JsonGenerator json = JsonUtil.factory().createGenerator(out, JsonEncoding.UTF8);
        json.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        try (JsonGenerator generator = new Splicing(json, out, version)) {
            TableMetadataParser.toJson(version.head(), generator);
        }
    }

    /**
     * Passes the parser's output through, and opens the top-level {@code snapshots} and {@code
     * snapshot-log} arrays with the earlier entries, written as bytes straight to the output.
     */
    private static final class Splicing extends JsonGeneratorDelegate {

        private static final byte[] COMMA = {','};

        private final OutputStream out;
        private final IcebergVersion version;
        private String field;

        Splicing(JsonGenerator generator, OutputStream out, IcebergVersion version) {
            super(generator, false);
            this.out = out;
            this.version = version;
        }

        @Override
        public void writeFieldName(String name) throws IOException {
            // Only the metadata object's own fields: those of nested objects are not spliced.
            field = delegate.getOutputContext().getParent().inRoot() ? name : null;
            super.writeFieldName(name);
        }

        @Override
        public void writeStartArray() throws IOException {
            super.writeStartArray();
            spliceEarlier();
        }

        @Override
        public void writeStartArray(Object forValue) throws IOException {
            super.writeStartArray(forValue);
            spliceEarlier();
        }

        @Override
        public void writeStartArray(Object forValue, int size) throws IOException {
            super.writeStartArray(forValue, size);
            spliceEarlier();
        }

        private void spliceEarlier() throws IOException {
            String opened = field;
            field = null;
            if ("snapshots".equals(opened)) {
                splice(version.earlier(), IcebergVersion.Earlier::json);
            } else if ("snapshot-log".equals(opened)) {
                splice(version.earlierLog(), h -> IcebergVersion.LogEntry.of(h).json());
            }
        }

        /** Writes the stored JSON of {@code entries}, comma-separated, into the array opened. */
        private <T> void splice(List<T> entries, Function<T, byte[]> json) throws IOException {
            if (entries.isEmpty()) {
                return;
            }
            delegate.flush();
            boolean first = true;
            for (T e : entries) {
                if (!first) {
                    out.write(COMMA);
                }
                out.write(json.apply(e));
                first = false;
            }
            countWritten();
        }

        /**
         * Tells the generator that the array holds a value now (the entries written past it), so
         * that it puts a comma before the next one: an empty raw value writes no text.
         */
        private void countWritten() throws IOException {
            delegate.writeRawValue("");
        }
    }
}
