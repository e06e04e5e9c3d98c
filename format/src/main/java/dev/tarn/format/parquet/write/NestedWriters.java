package dev.tarn.format.parquet.write;

import dev.tarn.format.parquet.schema.ParquetSchemas;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.io.api.RecordConsumer;

/**
 * {@link FieldWriter}s of ARRAY, MAP, MULTISET and ROW, emitting the group structure {@link
 * ParquetSchemas} declares. An empty array or map is an empty group; a null element or value is a
 * repeated group without that field.
 */
final class NestedWriters {

    private NestedWriters() {}

    static FieldWriter of(String name, LogicalType type, RecordConsumer c) {
        return switch (type.getTypeRoot()) {
            case ARRAY ->
                    new ArrayWriter(
                            FieldWriter.of(
                                    ParquetSchemas.LIST_ELEMENT,
                                    ((ArrayType) type).getElementType(),
                                    c),
                            c);
            case MAP -> new MapWriter(name, (MapType) type, c);
            case MULTISET ->
                    new MapWriter(
                            name,
                            new MapType(
                                    ((MultisetType) type).getElementType(),
                                    ParquetSchemas.multisetCount()),
                            c);
            case ROW -> new RowWriter(new RowFieldsWriter((RowType) type, c));
            default ->
                    throw new IllegalArgumentException(
                            "Column " + name + " of type " + type + " is not nested");
        };
    }

    private record RowWriter(RowFieldsWriter fields) implements FieldWriter {
        @Override
        public void write(RowData row, int pos) {
            fields.writeGroup(row.getRow(pos, fields.arity()));
        }

        @Override
        public void write(ArrayData array, int pos) {
            fields.writeGroup(array.getRow(pos, fields.arity()));
        }
    }

    private record ArrayWriter(FieldWriter element, RecordConsumer c) implements FieldWriter {
        @Override
        public void write(RowData row, int pos) {
            writeArray(row.getArray(pos));
        }

        @Override
        public void write(ArrayData array, int pos) {
            writeArray(array.getArray(pos));
        }

        private void writeArray(ArrayData array) {
            c.startGroup();
            int size = array.size();
            if (size > 0) {
                c.startField(ParquetSchemas.LIST_GROUP, 0);
                for (int i = 0; i < size; i++) {
                    c.startGroup();
                    if (!array.isNullAt(i)) {
                        c.startField(ParquetSchemas.LIST_ELEMENT, 0);
                        element.write(array, i);
                        c.endField(ParquetSchemas.LIST_ELEMENT, 0);
                    }
                    c.endGroup();
                }
                c.endField(ParquetSchemas.LIST_GROUP, 0);
            }
            c.endGroup();
        }
    }

    private static final class MapWriter implements FieldWriter {
        private final String name;
        private final boolean keyRequired;
        private final FieldWriter key;
        private final FieldWriter value;
        private final RecordConsumer c;

        MapWriter(String name, MapType type, RecordConsumer c) {
            this.name = name;
            this.keyRequired = !type.getKeyType().isNullable();
            this.key = FieldWriter.of(ParquetSchemas.MAP_KEY, type.getKeyType(), c);
            this.value = FieldWriter.of(ParquetSchemas.MAP_VALUE, type.getValueType(), c);
            this.c = c;
        }

        @Override
        public void write(RowData row, int pos) {
            writeMap(row.getMap(pos));
        }

        @Override
        public void write(ArrayData array, int pos) {
            writeMap(array.getMap(pos));
        }

        private void writeMap(MapData map) {
            ArrayData keys = map.keyArray();
            ArrayData values = map.valueArray();
            c.startGroup();
            int size = map.size();
            if (size > 0) {
                c.startField(ParquetSchemas.MAP_GROUP, 0);
                for (int i = 0; i < size; i++) {
                    c.startGroup();
                    writeEntryField(ParquetSchemas.MAP_KEY, 0, key, keys, i);
                    writeEntryField(ParquetSchemas.MAP_VALUE, 1, value, values, i);
                    c.endGroup();
                }
                c.endField(ParquetSchemas.MAP_GROUP, 0);
            }
            c.endGroup();
        }

        private void writeEntryField(
                String field, int index, FieldWriter writer, ArrayData data, int i) {
            if (!data.isNullAt(i)) {
                c.startField(field, index);
                writer.write(data, i);
                c.endField(field, index);
            } else if (index == 0 && keyRequired) {
                throw new IllegalArgumentException(
                        "Cannot write map column "
                                + name
                                + ": it holds a null key, but its key type is NOT NULL");
            }
        }
    }
}
