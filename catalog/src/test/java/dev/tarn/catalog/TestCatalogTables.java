package dev.tarn.catalog;

import dev.tarn.format.Table;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.deletion.DeletionVector;
import dev.tarn.format.deletion.IndexFiles;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.io.TablePaths;
import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.VectorChange;
import dev.tarn.format.read.TableFiles.BucketFile;
import dev.tarn.format.snapshot.Snapshot;
import dev.tarn.format.write.CommitMessage;
import dev.tarn.format.write.TableWrite;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.catalog.WatermarkSpec;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.apache.flink.table.types.DataType;

/**
 * Resolved catalog tables as Flink's planner would hand them to a catalog, built without a planner,
 * and rows written straight through the format so a table gets snapshots.
 */
public final class TestCatalogTables {

    /** {@code (id BIGINT, v STRING, dt STRING)}. */
    public static final List<Column> ID_V_DT =
            List.of(
                    Column.physical("id", DataTypes.BIGINT()),
                    Column.physical("v", DataTypes.STRING()).withComment("the value"),
                    Column.physical("dt", DataTypes.STRING()));

    /** {@link #ID_V_DT} partitioned by {@code dt}, with {@code options}. */
    public static ResolvedCatalogTable events(Map<String, String> options) {
        return table(ResolvedSchema.of(ID_V_DT), List.of("dt"), options, "click events");
    }

    public static ResolvedCatalogTable table(
            ResolvedSchema schema,
            List<String> partitionKeys,
            Map<String, String> options,
            @Nullable String comment) {
        CatalogTable origin =
                CatalogTable.newBuilder()
                        .schema(Schema.newBuilder().fromResolvedSchema(schema).build())
                        .partitionKeys(partitionKeys)
                        .options(options)
                        .comment(comment)
                        .build();
        return new ResolvedCatalogTable(origin, schema);
    }

    public static ResolvedCatalogTable withWatermark(Column timeColumn) {
        List<Column> columns = new ArrayList<>(ID_V_DT);
        columns.add(timeColumn);
        ResolvedSchema schema =
                new ResolvedSchema(
                        columns,
                        List.of(
                                WatermarkSpec.of(
                                        timeColumn.getName(),
                                        new FieldReferenceExpression(
                                                timeColumn.getName(),
                                                timeColumn.getDataType(),
                                                0,
                                                columns.size() - 1))),
                        null,
                        List.of());
        return table(schema, List.of(), Map.of(), null);
    }

    /**
     * Resolves a table the catalog returned, as Flink's planner does before ALTER TABLE; {@code
     * options} replace its options.
     */
    public static ResolvedCatalogTable resolve(
            CatalogBaseTable table, Map<String, String> options) {
        CatalogTable catalogTable = (CatalogTable) table;
        Schema unresolved = catalogTable.getUnresolvedSchema();
        List<Column> columns = new ArrayList<>();
        for (Schema.UnresolvedColumn column : unresolved.getColumns()) {
            Schema.UnresolvedPhysicalColumn physical = (Schema.UnresolvedPhysicalColumn) column;
            columns.add(
                    Column.physical(physical.getName(), (DataType) physical.getDataType())
                            .withComment(physical.getComment().orElse(null)));
        }
        UniqueConstraint primaryKey =
                unresolved
                        .getPrimaryKey()
                        .map(
                                pk ->
                                        UniqueConstraint.primaryKey(
                                                pk.getConstraintName(), pk.getColumnNames()))
                        .orElse(null);
        ResolvedSchema schema = new ResolvedSchema(columns, List.of(), primaryKey, List.of());
        return table(schema, catalogTable.getPartitionKeys(), options, catalogTable.getComment());
    }

    /** Appends rows of {@code (id, v, dt)} as one snapshot. */
    public static void append(Path location, String name, long commit, Object[]... rows) {
        Table table = Table.load(FileIO.flinkFileSystems(), location, name);
        List<CommitMessage> messages;
        try (TableWrite write = table.newWrite()) {
            for (Object[] row : rows) {
                write.write(
                        GenericRowData.of(
                                row[0],
                                StringData.fromString((String) row[1]),
                                row[2] == null ? null : StringData.fromString((String) row[2])));
            }
            messages = write.prepareCommit();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        table.newCommit("test").commit(CommitRequest.of(commit, messages));
    }

    /**
     * Marks rows {@code positions} of the first live data file of table {@code name} deleted, in
     * one snapshot of commit user {@code vectors} with identifier {@code commit}, as a writer of
     * deletion vectors leaves them. REQUIRES: the file has no vector yet.
     *
     * @return the data file
     */
    public static BucketFile deleteRows(
            Path location, String name, long commit, long... positions) {
        Table table = Table.load(FileIO.flinkFileSystems(), location, name);
        Snapshot latest = table.metadata().latestSnapshot().orElseThrow();
        BucketFile file = table.metadata().files().liveFiles(latest).get(0);
        String dataFile = file.file().fileName();
        DeletionFile vector;
        try {
            vector =
                    new IndexFiles(table.io(), new TablePaths(location))
                            .write(Map.of(dataFile, DeletionVector.of(positions)))
                            .get(dataFile);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        CommitMessage marks =
                new CommitMessage(
                                file.partition(),
                                file.bucket(),
                                table.config().bucket(),
                                List.of(),
                                List.of())
                        .withVectors(List.of(new VectorChange(dataFile, null, vector)));
        table.newCommit("vectors").commit(CommitRequest.of(commit, List.of(marks)));
        return file;
    }

    private TestCatalogTables() {}
}
