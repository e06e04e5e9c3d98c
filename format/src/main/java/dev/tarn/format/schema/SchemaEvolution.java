package dev.tarn.format.schema;

import dev.tarn.format.schema.SchemaChange.AddColumn;
import dev.tarn.format.schema.SchemaChange.DropColumn;
import dev.tarn.format.schema.SchemaChange.DropWatermark;
import dev.tarn.format.schema.SchemaChange.MoveColumn;
import dev.tarn.format.schema.SchemaChange.Position;
import dev.tarn.format.schema.SchemaChange.RemoveOption;
import dev.tarn.format.schema.SchemaChange.RenameColumn;
import dev.tarn.format.schema.SchemaChange.SetComputedColumns;
import dev.tarn.format.schema.SchemaChange.SetOption;
import dev.tarn.format.schema.SchemaChange.SetWatermark;
import dev.tarn.format.schema.SchemaChange.UpdateColumnComment;
import dev.tarn.format.schema.SchemaChange.UpdateColumnType;
import dev.tarn.format.schema.SchemaChange.UpdateComment;
import dev.tarn.format.schema.TableSchema.ComputedColumn;
import dev.tarn.format.schema.TableSchema.DataField;
import dev.tarn.format.schema.TableSchema.WatermarkSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * Applies {@link SchemaChange}s to one schema, in order, checking each against the columns the
 * changes before it left; {@link SchemaRules#alter} then checks the result as a whole. Key columns
 * (primary, partition and bucket keys, and the watermark's column, as the table has them before the
 * changes) keep their names and types: rows are bucketed, partitioned and merged by them, in files
 * of every schema version. A column's default option follows it through a rename and is removed
 * with it. An option that applies to one query is never stored.
 */
final class SchemaEvolution {

    private final String table;
    private final TableSchema base;
    private final List<DataField> fields;
    private final Map<String, String> options;
    @Nullable private String comment;
    @Nullable private WatermarkSpec watermark;
    private List<ComputedColumn> computedColumns;
    private int highestFieldId;

    SchemaEvolution(String table, TableSchema base) {
        this.table = table;
        this.base = base;
        this.fields = new ArrayList<>(base.fields());
        this.options = new HashMap<>(base.options());
        this.comment = base.comment();
        this.watermark = base.watermark();
        this.computedColumns = base.computedColumns();
        this.highestFieldId = base.highestFieldId();
    }

    TableSchema apply(List<SchemaChange> changes) {
        for (SchemaChange change : changes) {
            if (change instanceof SetOption set) {
                checkStored(set.key());
                options.put(set.key(), set.value());
            } else if (change instanceof RemoveOption remove) {
                options.remove(remove.key());
            } else if (change instanceof UpdateComment update) {
                comment = update.comment();
            } else if (change instanceof SetWatermark set) {
                watermark = set.watermark();
            } else if (change instanceof DropWatermark) {
                watermark = null;
            } else if (change instanceof SetComputedColumns set) {
                computedColumns = set.columns();
            } else if (change instanceof AddColumn add) {
                add(add);
            } else if (change instanceof DropColumn drop) {
                checkNotKey(drop.name(), "drop");
                if (fields.size() == 1) {
                    throw refused("drop column " + drop.name(), "it is the table's last column");
                }
                fields.remove(index(drop.name()));
                // A dropped column's default goes with it.
                options.remove(ColumnDefaults.key(drop.name()));
            } else if (change instanceof RenameColumn rename) {
                checkNotKey(rename.name(), "rename");
                if (find(rename.newName()) >= 0) {
                    throw refused(
                            "rename column " + rename.name() + " to " + rename.newName(),
                            "a column of that name exists");
                }
                int i = index(rename.name());
                DataField f = fields.get(i);
                fields.set(i, new DataField(f.id(), rename.newName(), f.type(), f.description()));
                String value = options.remove(ColumnDefaults.key(rename.name()));
                if (value != null) {
                    options.put(ColumnDefaults.key(rename.newName()), value);
                }
            } else if (change instanceof MoveColumn move) {
                DataField f = fields.remove(index(move.name()));
                if (move.name().equals(move.position().after())) {
                    throw refused("move column " + move.name(), "a column cannot go after itself");
                }
                fields.add(at(move.position(), "move column " + move.name()), f);
            } else if (change instanceof UpdateColumnType update) {
                updateType(update);
            } else if (change instanceof UpdateColumnComment comment) {
                int i = index(comment.name());
                DataField f = fields.get(i);
                fields.set(i, new DataField(f.id(), f.name(), f.type(), comment.comment()));
            }
        }
        return new TableSchema(
                base.id() + 1,
                fields,
                base.partitionKeys(),
                base.primaryKeys(),
                options,
                comment,
                watermark,
                computedColumns,
                highestFieldId);
    }

    /** Refuses to store an option that describes one query, not the table. */
    private void checkStored(String key) {
        if (TableOptions.queryOnly().stream().anyMatch(o -> o.key().equals(key))) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot alter table %s: option '%s' applies to one query; give it as"
                                    + " a hint (/*+ OPTIONS(...) */), not in ALTER TABLE",
                            table, key));
        }
    }

    private void add(AddColumn add) {
        String what = "add column " + add.name() + " " + add.type().asSummaryString();
        if (find(add.name()) >= 0) {
            throw refused(what, "a column of that name exists");
        }
        if (add.defaultValue() != null) {
            options.put(ColumnDefaults.key(add.name()), add.defaultValue());
        }
        String defaultValue = options.get(ColumnDefaults.key(add.name()));
        if (!add.type().isNullable() && defaultValue == null) {
            throw refused(
                    what,
                    "rows written before have no value for it; give it a default (option '"
                            + ColumnDefaults.key(add.name())
                            + "') or add it as a nullable column");
        }
        if (defaultValue != null) {
            ColumnDefaults.check(table, add.name(), add.type(), defaultValue);
        }
        int at = add.position() == null ? fields.size() : at(add.position(), what);
        highestFieldId++;
        fields.add(at, new DataField(highestFieldId, add.name(), add.type(), add.comment()));
    }

    private void updateType(UpdateColumnType update) {
        int i = index(update.name());
        DataField f = fields.get(i);
        String what =
                "change column "
                        + f.name()
                        + " from "
                        + f.type().asSummaryString()
                        + " to "
                        + update.newType().asSummaryString();
        String reason = TypeWidening.refusal(f.type(), update.newType());
        if (reason == null && !f.type().equals(update.newType())) {
            String key = keyKind(f.name());
            if (key != null) {
                reason =
                        "it is a "
                                + key
                                + " column, and rows are bucketed, partitioned and merged by its"
                                + " values as stored";
            }
        }
        if (reason != null) {
            throw refused(what, reason);
        }
        fields.set(i, new DataField(f.id(), f.name(), update.newType(), f.description()));
    }

    private void checkNotKey(String name, String verb) {
        index(name);
        String key = keyKind(name);
        if (key != null) {
            throw refused(
                    verb + " column " + name,
                    "it is a "
                            + key
                            + " column; rows are bucketed, partitioned and merged by it in"
                            + " every file");
        }
        if (base.watermark() != null && base.watermark().rowtime().equals(name)) {
            throw refused(verb + " column " + name, "the watermark is declared on it");
        }
        String option = optionNaming(name);
        if (option != null) {
            throw refused(verb + " column " + name, "table option '" + option + "' names it");
        }
    }

    @Nullable
    private String keyKind(String name) {
        if (base.primaryKeys().contains(name)) {
            return "primary-key";
        }
        if (base.partitionKeys().contains(name)) {
            return "partition";
        }
        if (base.options().containsKey(TableOptions.BUCKET_KEY.key())
                && base.bucketKeys().contains(name)) {
            return "bucket-key";
        }
        return null;
    }

    /** An option whose key or value names the column, e.g. {@code fields.<name>.*}. */
    @Nullable
    private String optionNaming(String name) {
        for (var e : base.options().entrySet()) {
            if (e.getKey().startsWith("fields." + name + ".")
                    && !e.getKey().equals(ColumnDefaults.key(name))) {
                return e.getKey();
            }
            if (e.getKey().equals("sequence.field")
                    && List.of(e.getValue().trim().split("\\s*,\\s*")).contains(name)) {
                return e.getKey();
            }
        }
        return null;
    }

    /** The index a column goes to at {@code position} among the current fields. */
    private int at(Position position, String what) {
        if (position.after() == null) {
            return 0;
        }
        int after = find(position.after());
        if (after < 0) {
            throw refused(what, "there is no column " + position.after() + " to put it after");
        }
        return after + 1;
    }

    private int index(String name) {
        int i = find(name);
        if (i < 0) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot alter table %s: column %s does not exist; columns are %s",
                            table, name, fields.stream().map(DataField::name).toList()));
        }
        return i;
    }

    private int find(String name) {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    private IllegalArgumentException refused(String what, String reason) {
        return new IllegalArgumentException(
                String.format("Cannot %s of table %s: %s", what, table, reason));
    }
}
