package dev.tarn.format.table;

import dev.tarn.format.parquet.read.ColumnMapping;
import dev.tarn.format.schema.TableSchema;
import dev.tarn.format.schema.TableSchema.DataField;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import javax.annotation.Nullable;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;

/**
 * How the columns of a file written under one schema version are read as columns of another, by
 * field id (SPEC.md, "Schema evolution"): a column is found under the name the file's schema gave
 * its id, a column the file lacks reads as its default (or null), and a widened column is converted
 * value by value. Columns that are not table columns (a primary-key file's sequence number and row
 * kind) are read as they are. The mapped row is one object reused from row to row, as the reader's
 * own rows are.
 */
final class FieldIdMapping implements UnaryOperator<RowData> {

    /** The columns to read from the file, under the file's names and types. */
    private final RowType fileReadType;

    /** Per read column: its position in {@link #fileReadType}, or -1 to read null. */
    private final int[] sources;

    /** Per read column the file lacks: the value it reads as (its default, or null). */
    private final Object[] constants;

    private final RowType readType;
    private final RowData.FieldGetter[] getters;
    private final UnaryOperator<Object>[] conversions;
    private final GenericRowData out;

    @SuppressWarnings("unchecked")
    FieldIdMapping(TableSchema readSchema, TableSchema fileSchema, RowType readType) {
        List<RowType.RowField> fileFields = new ArrayList<>();
        int arity = readType.getFieldCount();
        this.sources = new int[arity];
        this.getters = new RowData.FieldGetter[arity];
        this.conversions = new UnaryOperator[arity];
        this.constants = new Object[arity];
        this.readType = readType;
        for (int i = 0; i < arity; i++) {
            RowType.RowField field = readType.getFields().get(i);
            DataField current = field(readSchema, field.getName());
            LogicalType fileType;
            String fileName;
            if (current == null) {
                fileName = field.getName();
                fileType = field.getType();
            } else {
                DataField written = byId(fileSchema, current.id());
                if (written == null) {
                    sources[i] = -1;
                    constants[i] = readSchema.defaultValue(current.name());
                    continue;
                }
                fileName = written.name();
                fileType = written.type();
            }
            sources[i] = fileFields.size();
            getters[i] = RowData.createFieldGetter(fileType, fileFields.size());
            try {
                conversions[i] = conversion(fileType, field.getType());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        String.format(
                                "Cannot read column %s of a file of schema %d through schema %d:"
                                        + " %s",
                                field.getName(), fileSchema.id(), readSchema.id(), e.getMessage()),
                        e);
            }
            fileFields.add(new RowType.RowField(fileName, fileType));
        }
        this.fileReadType = new RowType(false, fileFields);
        this.out = new GenericRowData(arity);
    }

    RowType fileReadType() {
        return fileReadType;
    }

    /** The mapping as the columnar reader takes it (the same as {@link #apply}, by vectors). */
    ColumnMapping columns() {
        return new ColumnMapping(fileReadType, readType, sources, constants);
    }

    @Override
    public RowData apply(RowData row) {
        out.setRowKind(row.getRowKind());
        for (int i = 0; i < sources.length; i++) {
            if (sources[i] < 0) {
                out.setField(i, constants[i]);
            } else {
                Object value = getters[i].getFieldOrNull(row);
                out.setField(i, value == null ? null : conversions[i].apply(value));
            }
        }
        return out;
    }

    /**
     * Converts a value of {@code from} to {@code to}, a widening the schema rules allow.
     *
     * @throws IllegalArgumentException if {@code to} is not {@code from} or wider: a file written
     *     under a newer schema (one that widened the column) read through an older one
     */
    static UnaryOperator<Object> conversion(LogicalType from, LogicalType to) {
        if (from.copy(true).equals(to.copy(true))) {
            return UnaryOperator.identity();
        }
        LogicalTypeRoot source = from.getTypeRoot();
        UnaryOperator<Object> conversion =
                switch (to.getTypeRoot()) {
                    case SMALLINT ->
                            source == LogicalTypeRoot.TINYINT
                                    ? v -> ((Number) v).shortValue()
                                    : null;
                    case INTEGER ->
                            source == LogicalTypeRoot.TINYINT || source == LogicalTypeRoot.SMALLINT
                                    ? v -> ((Number) v).intValue()
                                    : null;
                    case BIGINT ->
                            source == LogicalTypeRoot.TINYINT
                                            || source == LogicalTypeRoot.SMALLINT
                                            || source == LogicalTypeRoot.INTEGER
                                    ? v -> ((Number) v).longValue()
                                    : null;
                    case DOUBLE ->
                            source == LogicalTypeRoot.FLOAT
                                    ? v -> ((Number) v).doubleValue()
                                    : null;
                    case DECIMAL ->
                            source == LogicalTypeRoot.DECIMAL
                                    ? decimal((DecimalType) from, (DecimalType) to)
                                    : null;
                    case ROW ->
                            source == LogicalTypeRoot.ROW
                                    ? row((RowType) from, (RowType) to)
                                    : null;
                    // CHAR and VARCHAR values are the same strings under a longer VARCHAR.
                    case VARCHAR ->
                            (source == LogicalTypeRoot.CHAR || source == LogicalTypeRoot.VARCHAR)
                                            && LogicalTypeChecks.getLength(to)
                                                    >= LogicalTypeChecks.getLength(from)
                                    ? UnaryOperator.identity()
                                    : null;
                    default -> null;
                };
        if (conversion == null) {
            throw new IllegalArgumentException(
                    "Cannot read a column stored as "
                            + from.asSummaryString()
                            + " as "
                            + to.asSummaryString()
                            + ": not a widening (a file of a newer schema read through an older"
                            + " one?)");
        }
        return conversion;
    }

    @Nullable
    private static UnaryOperator<Object> decimal(DecimalType from, DecimalType to) {
        if (to.getScale() < from.getScale()
                || to.getPrecision() - to.getScale() < from.getPrecision() - from.getScale()) {
            return null;
        }
        return v ->
                DecimalData.fromBigDecimal(
                        ((DecimalData) v)
                                .toBigDecimal()
                                .setScale(to.getScale(), RoundingMode.UNNECESSARY),
                        to.getPrecision(),
                        to.getScale());
    }

    /**
     * A ROW that gained fields at its end (and may have widened others): its fields by position,
     * converted, the new ones null. A new row per value: values outlive the row they came in.
     */
    @Nullable
    private static UnaryOperator<Object> row(RowType from, RowType to) {
        int arity = from.getFieldCount();
        if (to.getFieldCount() < arity) {
            return null;
        }
        RowData.FieldGetter[] getters = new RowData.FieldGetter[arity];
        List<UnaryOperator<Object>> fields = new ArrayList<>();
        for (int i = 0; i < arity; i++) {
            getters[i] = RowData.createFieldGetter(from.getTypeAt(i), i);
            fields.add(conversion(from.getTypeAt(i), to.getTypeAt(i)));
        }
        int toArity = to.getFieldCount();
        return v -> {
            RowData in = (RowData) v;
            GenericRowData out = new GenericRowData(toArity);
            for (int i = 0; i < arity; i++) {
                Object value = getters[i].getFieldOrNull(in);
                out.setField(i, value == null ? null : fields.get(i).apply(value));
            }
            return out;
        };
    }

    @Nullable
    private static DataField field(TableSchema schema, String name) {
        for (DataField f : schema.fields()) {
            if (f.name().equals(name)) {
                return f;
            }
        }
        return null;
    }

    @Nullable
    static DataField byId(TableSchema schema, int id) {
        for (DataField f : schema.fields()) {
            if (f.id() == id) {
                return f;
            }
        }
        return null;
    }
}
