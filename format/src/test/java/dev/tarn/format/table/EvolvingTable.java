package dev.tarn.format.table;

import dev.tarn.format.Table;
import dev.tarn.format.TableInternals;
import dev.tarn.format.TestTables;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.maintenance.FullCompaction;
import dev.tarn.format.predicate.Predicate;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.TableRead;
import dev.tarn.format.schema.SchemaChange;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.write.TableWrite;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;

/** A table in a test directory whose schema the test changes, writes under and reads back. */
final class EvolvingTable {

    private final Path location;
    private Table table;
    private long commits;

    EvolvingTable(java.nio.file.Path dir, RowType type, List<String> primaryKeys) {
        this.location = new Path(dir.toUri());
        this.table =
                Table.create(
                        FileIO.flinkFileSystems(),
                        location,
                        "db.t",
                        TableSchema.create(
                                type, List.of(), primaryKeys, Map.of("bucket", "2"), null));
    }

    Table table() {
        return table;
    }

    TableSchema schema() {
        return table.schema();
    }

    /** Commits the schema {@code changes} make and reloads the table under it. */
    TableSchema evolve(List<SchemaChange> changes) {
        table.alter(changes);
        table = Table.load(FileIO.flinkFileSystems(), location, "db.t");
        return table.schema();
    }

    /** Commits the schema with {@code options}, and no others, and reloads the table under it. */
    void setOptions(Map<String, String> options) {
        List<SchemaChange> changes = new ArrayList<>();
        for (String key : table.schema().options().keySet()) {
            if (!options.containsKey(key)) {
                changes.add(new SchemaChange.RemoveOption(key));
            }
        }
        options.forEach((key, value) -> changes.add(new SchemaChange.SetOption(key, value)));
        evolve(changes);
    }

    /** Writes and commits {@code rows} through {@code writer}, a table of any schema version. */
    void write(Table writer, List<RowData> rows) throws Exception {
        try (TableWrite write = writer.newWrite()) {
            for (RowData row : rows) {
                write.write(row);
            }
            TestTables.commit(writer, "writer", CommitRequest.of(++commits, write.prepareCommit()));
        }
    }

    void write(List<RowData> rows) throws Exception {
        write(table, rows);
    }

    void compact() {
        FullCompaction.run(TableInternals.context(table));
    }

    /** Every row of the latest snapshot, each value as {@link #text}, sorted. */
    List<List<String>> read(@Nullable Predicate filter) throws Exception {
        RowType type = table.schema().rowType();
        List<List<String>> rows = new ArrayList<>();
        for (Split split : table.newScan().withFilter(filter).plan().splits()) {
            try (TableRead.SplitReader reader = table.newRead().open(split)) {
                for (RowData r = reader.next(); r != null; r = reader.next()) {
                    List<String> row = new ArrayList<>();
                    for (int i = 0; i < type.getFieldCount(); i++) {
                        row.add(
                                text(
                                        RowData.createFieldGetter(type.getTypeAt(i), i)
                                                .getFieldOrNull(r)));
                    }
                    rows.add(row);
                }
            }
        }
        rows.sort(EvolvingTable::compare);
        return rows;
    }

    static int compare(List<String> a, List<String> b) {
        return String.join("|", a).compareTo(String.join("|", b));
    }

    /**
     * A value as text that a widening does not change: 5 for INT and BIGINT, 1.25 for both floats.
     */
    @Nullable
    static String text(@Nullable Object v) {
        if (v == null) {
            return null;
        }
        if (v instanceof Float || v instanceof Double) {
            return Double.toString(((Number) v).doubleValue());
        }
        if (v instanceof Number) {
            return Long.toString(((Number) v).longValue());
        }
        if (v instanceof DecimalData d) {
            BigDecimal b = d.toBigDecimal().stripTrailingZeros();
            return b.signum() == 0 ? "0" : b.toPlainString();
        }
        if (v instanceof StringData s) {
            return s.toString();
        }
        return v.toString();
    }
}
