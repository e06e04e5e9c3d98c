package dev.tarn.format.parquet.read;

import dev.tarn.format.parquet.schema.ParquetSchemas;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;

/**
 * Parquet converters building Flink values of any type, mirroring the groups {@link ParquetSchemas}
 * writes. Nested values are fresh objects ({@link GenericArrayData} over a boxed array of the
 * element's class, {@link GenericMapData}, {@link org.apache.flink.table.data.GenericRowData});
 * only the top-level row is reused.
 */
final class ParquetConverters {

    private ParquetConverters() {}

    static Converter of(LogicalType type, Consumer<Object> sink) {
        return switch (type.getTypeRoot()) {
            case ARRAY -> new ListConverter(((ArrayType) type).getElementType(), sink);
            case MAP ->
                    new MapConverter(
                            ((MapType) type).getKeyType(), ((MapType) type).getValueType(), sink);
            case MULTISET ->
                    new MapConverter(
                            ((MultisetType) type).getElementType(),
                            ParquetSchemas.multisetCount(),
                            sink);
            case ROW -> new RowConverter((RowType) type, sink);
            default -> AtomicConverters.of(type, sink);
        };
    }

    /**
     * An array of the boxed class of {@code type}, so that {@link GenericArrayData}'s {@code
     * toIntArray()} and friends work on what the reader returns.
     */
    static IntFunction<Object[]> arrayFactory(LogicalType type) {
        return switch (type.getTypeRoot()) {
            case BOOLEAN -> Boolean[]::new;
            case TINYINT -> Byte[]::new;
            case SMALLINT -> Short[]::new;
            case INTEGER, DATE, TIME_WITHOUT_TIME_ZONE -> Integer[]::new;
            case BIGINT -> Long[]::new;
            case FLOAT -> Float[]::new;
            case DOUBLE -> Double[]::new;
            default -> Object[]::new;
        };
    }

    /** The LIST group: collects the elements of its repeated {@code list} group. */
    private static final class ListConverter extends GroupConverter {
        private final Consumer<Object> sink;
        private final IntFunction<Object[]> arrays;
        private final List<Object> elements = new ArrayList<>();
        private final GroupConverter repeated;
        private Object element;

        ListConverter(LogicalType elementType, Consumer<Object> sink) {
            this.sink = sink;
            this.arrays = arrayFactory(elementType);
            Converter elementConverter = of(elementType, v -> element = v);
            this.repeated =
                    new GroupConverter() {
                        @Override
                        public Converter getConverter(int fieldIndex) {
                            return elementConverter;
                        }

                        @Override
                        public void start() {
                            element = null;
                        }

                        @Override
                        public void end() {
                            elements.add(element);
                        }
                    };
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return repeated;
        }

        @Override
        public void start() {
            elements.clear();
        }

        @Override
        public void end() {
            sink.accept(new GenericArrayData(elements.toArray(arrays.apply(elements.size()))));
        }
    }

    /** The MAP group: collects the entries of its repeated {@code key_value} group. */
    private static final class MapConverter extends GroupConverter {
        private final Consumer<Object> sink;
        private final GroupConverter repeated;
        private Map<Object, Object> entries;
        private Object key;
        private Object value;

        MapConverter(LogicalType keyType, LogicalType valueType, Consumer<Object> sink) {
            this.sink = sink;
            Converter keyConverter = of(keyType, v -> key = v);
            Converter valueConverter = of(valueType, v -> value = v);
            this.repeated =
                    new GroupConverter() {
                        @Override
                        public Converter getConverter(int fieldIndex) {
                            return fieldIndex == 0 ? keyConverter : valueConverter;
                        }

                        @Override
                        public void start() {
                            key = null;
                            value = null;
                        }

                        @Override
                        public void end() {
                            entries.put(key, value);
                        }
                    };
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return repeated;
        }

        @Override
        public void start() {
            entries = new HashMap<>();
        }

        @Override
        public void end() {
            sink.accept(new GenericMapData(entries));
        }
    }
}
