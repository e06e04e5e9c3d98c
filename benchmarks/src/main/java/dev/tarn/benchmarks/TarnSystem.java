package dev.tarn.benchmarks;

import dev.tarn.format.Table;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.write.TableWrite;
import java.util.UUID;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.RowData;

/**
 * Tarn in the streaming-read benchmarks: catalog {@code lake}, and a writer through the format's
 * write seam ({@link TableWrite} -> {@link TableCommit}) on the table the catalog keeps at {@code
 * <warehouse>/<db>.db/<table>}.
 */
record TarnSystem(String warehouse) implements LakeSystem {

    @Override
    public String name() {
        return "tarn";
    }

    @Override
    public String catalog() {
        return "lake";
    }

    @Override
    public InProcessWriter writer(String table) {
        Table loaded =
                Table.load(
                        FileIO.flinkFileSystems(),
                        new Path(warehouse + "/" + DATABASE + ".db/" + table),
                        DATABASE + "." + table);
        return new Writer(loaded.newWrite(), loaded.newCommit("bench-" + UUID.randomUUID()));
    }

    /** One table write across commits, as a streaming writer task keeps it. */
    private static final class Writer implements InProcessWriter {
        private final TableWrite write;
        private final TableCommit commit;
        private long identifier;

        Writer(TableWrite write, TableCommit commit) {
            this.write = write;
            this.commit = commit;
        }

        @Override
        public void write(RowData row) throws Exception {
            write.write(row);
        }

        @Override
        public void commit() throws Exception {
            // As at a checkpoint: compactions still running come with a later commit.
            commit.commit(CommitRequest.of(++identifier, write.prepareCommit(false)));
        }

        @Override
        public void close() {
            write.close();
        }
    }
}
