package dev.tarn.format;

import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.read.Split;
import dev.tarn.format.read.TableRead;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.write.CommitMessage;
import dev.tarn.format.write.TableWrite;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * Tables for tests: create one, write rows into commit messages, and read every row back as text
 * ({@code "1,a"}), so assertions compare plain strings.
 */
public final class TestTables {

    public static final String NAME = "db.t";

    /** {@code (id BIGINT, v STRING)}. */
    public static final RowType ID_V =
            RowType.of(
                    new org.apache.flink.table.types.logical.LogicalType[] {
                        new BigIntType(), VarCharType.STRING_TYPE
                    },
                    new String[] {"id", "v"});

    /** {@code (id BIGINT, v STRING, dt STRING)}, partitioned by {@code dt} where used. */
    public static final RowType ID_V_DT =
            RowType.of(
                    new org.apache.flink.table.types.logical.LogicalType[] {
                        new BigIntType(), VarCharType.STRING_TYPE, VarCharType.STRING_TYPE
                    },
                    new String[] {"id", "v", "dt"});

    public static Table create(
            FileIO io,
            Path location,
            RowType rowType,
            List<String> partitionKeys,
            Map<String, String> options) {
        return Table.create(
                io,
                location,
                NAME,
                TableSchema.create(rowType, partitionKeys, List.of(), options, null));
    }

    /** A row of Flink internal data; Java strings become {@link StringData}. */
    public static GenericRowData row(Object... values) {
        Object[] internal = new Object[values.length];
        for (int i = 0; i < values.length; i++) {
            internal[i] = values[i] instanceof String s ? StringData.fromString(s) : values[i];
        }
        return GenericRowData.of(internal);
    }

    /** Writes {@code rows} with a fresh {@link TableWrite} and returns its commit messages. */
    public static List<CommitMessage> write(Table table, List<? extends RowData> rows) {
        try (TableWrite write = table.newWrite()) {
            for (RowData row : rows) {
                write.write(row);
            }
            return write.prepareCommit();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes and commits {@code rows}; returns the new snapshot id. */
    public static long append(Table table, long identifier, List<? extends RowData> rows) {
        return commit(table, "user", CommitRequest.of(identifier, write(table, rows)))
                .snapshotId()
                .orElseThrow(() -> new AssertionError("Commit of " + rows + " was empty"));
    }

    /**
     * Commits {@code request} as {@code user} with a committer of its own and no hooks, so no
     * expiration runs after it: a test's snapshots stay as it made them until it expires them.
     */
    public static TableCommit.Result commit(Table table, String user, CommitRequest request) {
        try (TableCommit commit = new TableCommit(TableInternals.context(table), user)) {
            return commit.commit(request);
        }
    }

    /** Every row the table's scan plans, as sorted text. */
    public static List<String> readAll(Table table) {
        return read(table, table.newScan().plan().splits());
    }

    /** Every row of {@code splits}, as sorted text. */
    public static List<String> read(Table table, List<Split> splits) {
        RowType type = table.schema().rowType();
        List<RowData.FieldGetter> getters = new ArrayList<>();
        for (int i = 0; i < type.getFieldCount(); i++) {
            getters.add(RowData.createFieldGetter(type.getTypeAt(i), i));
        }
        List<String> rows = new ArrayList<>();
        TableRead read = table.newRead();
        for (Split split : splits) {
            try (TableRead.SplitReader reader = read.open(split)) {
                for (RowData row = reader.next(); row != null; row = reader.next()) {
                    RowData current = row;
                    rows.add(
                            getters.stream()
                                    .map(g -> String.valueOf(g.getFieldOrNull(current)))
                                    .collect(Collectors.joining(",")));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        rows.sort(null);
        return rows;
    }

    private TestTables() {}
}
