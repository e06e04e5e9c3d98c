package dev.tarn.benchmarks.paimon;

import dev.tarn.benchmarks.IcebergCommitTarget;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.flink.FlinkCatalogFactory;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.StreamTableCommit;
import org.apache.paimon.table.sink.StreamTableWrite;
import org.apache.paimon.table.sink.StreamWriteBuilder;
import org.apache.paimon.types.DataTypes;

/**
 * Apache Paimon in the Iceberg commit-cost benchmark: an append table {@code (id BIGINT, v STRING)}
 * of one fixed bucket (so a full compaction of it is one call of its stream write API), written and
 * committed as Paimon's Flink writer does, with {@code metadata.iceberg.storage} set or not.
 * Compiled only with the {@code paimon} Maven profile.
 */
public final class PaimonIcebergCommits implements IcebergCommitTarget.Factory {

    @Override
    public String name() {
        return "paimon";
    }

    @Override
    public IcebergCommitTarget open(Path directory, boolean iceberg) throws Exception {
        Schema.Builder columns =
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT())
                        .column("v", DataTypes.STRING())
                        .option("bucket", "1")
                        .option("bucket-key", "id")
                        // Only the benchmark's own full compactions, never one in an append commit.
                        .option("compaction.min.file-num", "1000000");
        if (iceberg) {
            columns.option("metadata.iceberg.storage", "table-location");
        }
        Schema schema = columns.build();
        Identifier id = Identifier.create("bench", "iceberg_commits");
        Table table;
        try (Catalog catalog =
                FlinkCatalogFactory.createPaimonCatalog(
                        Options.fromMap(Map.of("warehouse", directory.toUri().toString())))) {
            catalog.createDatabase("bench", true);
            catalog.createTable(id, schema, false);
            table = catalog.getTable(id);
        }
        StreamWriteBuilder builder =
                table.newStreamWriteBuilder().withCommitUser("bench-" + UUID.randomUUID());
        IOManager io = IOManager.create(System.getProperty("java.io.tmpdir"));
        StreamTableWrite write = builder.newWrite();
        write.withIOManager(io);
        return new Target(write, builder.newCommit(), io);
    }

    private static final class Target implements IcebergCommitTarget {
        private final StreamTableWrite write;
        private final StreamTableCommit commit;
        private final IOManager io;
        private long identifier;

        Target(StreamTableWrite write, StreamTableCommit commit, IOManager io) {
            this.write = write;
            this.commit = commit;
            this.io = io;
        }

        @Override
        public Publish prepareAppend() throws Exception {
            long id = ++identifier;
            write.write(GenericRow.of(id, BinaryString.fromString("v" + id)));
            List<CommitMessage> messages = write.prepareCommit(false, id);
            return () -> commit.commit(id, messages);
        }

        @Override
        public Publish prepareCompaction() throws Exception {
            long id = ++identifier;
            write.compact(BinaryRow.EMPTY_ROW, 0, true);
            List<CommitMessage> messages = write.prepareCommit(true, id);
            return () -> commit.commit(id, messages);
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
