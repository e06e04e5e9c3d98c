package dev.tarn.benchmarks.paimon;

import dev.tarn.benchmarks.InProcessWriter;
import dev.tarn.benchmarks.LakeSystem;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.table.data.RowData;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.flink.FlinkCatalogFactory;
import org.apache.paimon.flink.FlinkRowWrapper;
import org.apache.paimon.options.Options;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.StreamTableCommit;
import org.apache.paimon.table.sink.StreamTableWrite;
import org.apache.paimon.table.sink.StreamWriteBuilder;

/**
 * Apache Paimon in the streaming-read benchmarks: catalog {@code paimon}, and a writer through
 * Paimon's stream write API (one {@link StreamTableWrite} and {@link StreamTableCommit} across
 * commits, as Paimon's Flink writer keeps them). The Java catalog is made as Paimon's Flink catalog
 * makes its own, so both pick the same file IO for the warehouse (Flink's file systems for a scheme
 * Paimon has no file IO of its own for). Compiled only with the {@code paimon} Maven profile.
 */
public final class PaimonSystem implements LakeSystem {

    private final String warehouse;

    public PaimonSystem(String warehouse) {
        this.warehouse = warehouse;
    }

    @Override
    public String name() {
        return "paimon";
    }

    @Override
    public String catalog() {
        return "paimon";
    }

    @Override
    public String warehouse() {
        return warehouse;
    }

    @Override
    public InProcessWriter writer(String table) throws Exception {
        Table loaded;
        try (Catalog catalog =
                FlinkCatalogFactory.createPaimonCatalog(
                        Options.fromMap(Map.of("warehouse", warehouse)))) {
            loaded = catalog.getTable(Identifier.create(DATABASE, table));
        }
        StreamWriteBuilder builder =
                loaded.newStreamWriteBuilder().withCommitUser("bench-" + UUID.randomUUID());
        // Spill files and lookup files (a table with deletion vectors or a lookup changelog needs
        // them) go to a temporary directory, as Paimon's Flink writer gives them Flink's.
        IOManager io = IOManager.create(System.getProperty("java.io.tmpdir"));
        StreamTableWrite write = builder.newWrite();
        write.withIOManager(io);
        return new Writer(write, builder.newCommit(), io);
    }

    private static final class Writer implements InProcessWriter {
        private final StreamTableWrite write;
        private final StreamTableCommit commit;
        private final IOManager io;
        private long identifier;

        Writer(StreamTableWrite write, StreamTableCommit commit, IOManager io) {
            this.write = write;
            this.commit = commit;
            this.io = io;
        }

        @Override
        public void write(RowData row) throws Exception {
            write.write(new FlinkRowWrapper(row));
        }

        @Override
        public void commit() throws Exception {
            identifier++;
            // As at a checkpoint: compactions still running come with a later commit.
            commit.commit(identifier, write.prepareCommit(false, identifier));
        }

        @Override
        public void close() throws Exception {
            try (io;
                    commit) {
                write.close();
            }
        }
    }
}
