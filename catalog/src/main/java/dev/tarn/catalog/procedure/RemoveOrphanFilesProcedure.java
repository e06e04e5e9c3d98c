package dev.tarn.catalog.procedure;

import dev.tarn.format.Table;
import dev.tarn.format.maintenance.RemoveOrphanFiles;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

/**
 * {@code CALL <catalog>.sys.remove_orphan_files(`table` => 'db.t', older_than => '2026-11-29
 * 00:00:00', dry_run => true, force => false)}: removes the files of a table that no snapshot
 * references and that are older than {@code older_than} (default: one day ago), as {@link
 * RemoveOrphanFiles} does in the calling process. Arguments as Apache Paimon names them; all but
 * the table are optional, by name or by position. One row per file removed (or that would be, with
 * {@code dry_run}), a row without size for each commit user whose pending commits are older than
 * {@code pending-commit.retention} (their files are kept), then a summary row with the total size.
 * Public because Flink calls {@code call} reflectively.
 */
public final class RemoveOrphanFilesProcedure implements Procedure {

    static final String NAME = "remove_orphan_files";

    /** {@code yyyy-MM-dd HH:mm:ss}, optionally with a fraction of a second, as SQL writes it. */
    private static final DateTimeFormatter TIMESTAMP =
            new DateTimeFormatterBuilder()
                    .appendPattern("yyyy-MM-dd HH:mm:ss")
                    .optionalStart()
                    .appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true)
                    .optionalEnd()
                    .toFormatter();

    private final Function<ObjectPath, Table> tables;

    RemoveOrphanFilesProcedure(Function<ObjectPath, Table> tables) {
        this.tables = tables;
    }

    @ProcedureHint(
            argument = {
                @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
                @ArgumentHint(
                        name = "older_than",
                        type = @DataTypeHint("STRING"),
                        isOptional = true),
                @ArgumentHint(name = "dry_run", type = @DataTypeHint("BOOLEAN"), isOptional = true),
                @ArgumentHint(name = "force", type = @DataTypeHint("BOOLEAN"), isOptional = true)
            })
    public @DataTypeHint("ROW<file STRING, size BIGINT>") Row[] call(
            ProcedureContext context,
            String table,
            String olderThan,
            Boolean dryRun,
            Boolean force) {
        Table target = tables.apply(TableArgument.parse(table, "remove orphan files of"));
        Instant threshold = olderThan == null ? null : parse(target.name(), olderThan, context);
        RemoveOrphanFiles.Result result;
        try {
            result =
                    target.maintenance()
                            .removeOrphanFiles(
                                    threshold,
                                    Boolean.TRUE.equals(dryRun),
                                    Boolean.TRUE.equals(force),
                                    Instant.now());
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new ValidationException(e.getMessage(), e);
        }
        List<Row> rows = new ArrayList<>();
        for (RemoveOrphanFiles.Removed file : result.files()) {
            rows.add(Row.of(file.path(), file.size()));
        }
        for (String warning : result.warnings()) {
            rows.add(Row.of(warning, null));
        }
        rows.add(Row.of(result.summary(), result.bytes()));
        return rows.toArray(new Row[0]);
    }

    /** A timestamp in the session's time zone ({@code table.local-time-zone}). */
    private static Instant parse(String table, String text, ProcedureContext context) {
        try {
            return LocalDateTime.parse(text.trim(), TIMESTAMP).atZone(zone(context)).toInstant();
        } catch (DateTimeParseException e) {
            throw new ValidationException(
                    String.format(
                            "Cannot remove orphan files of table %s: older_than '%s' is not a"
                                    + " timestamp 'yyyy-MM-dd HH:mm:ss'",
                            table, text),
                    e);
        }
    }

    private static ZoneId zone(ProcedureContext context) {
        String zone =
                context.getExecutionEnvironment()
                        .getConfiguration()
                        .toMap()
                        .getOrDefault("table.local-time-zone", "default");
        return zone.equals("default") ? ZoneId.systemDefault() : ZoneId.of(zone);
    }
}
