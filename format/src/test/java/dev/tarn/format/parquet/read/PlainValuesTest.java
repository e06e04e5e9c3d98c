package dev.tarn.format.parquet.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;

/** Passing over length-prefixed values lands where reading them would, and a bad length fails. */
class PlainValuesTest {

    private static final PrimitiveType TYPE = Types.optional(PrimitiveTypeName.BINARY).named("s");
    private static final ColumnDescriptor COLUMN =
            new ColumnDescriptor(new String[] {"s"}, TYPE, 0, 1);

    @Test
    void skippedStringsLandOnTheValueAfterThem() throws Exception {
        Random random = new Random(11);
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            values.add("v" + i + "x".repeat(random.nextInt(40)));
        }
        byte[] page = plain(values);
        for (String kind : List.of("heap", "heap at an offset", "direct")) {
            PlainValues reader = new PlainValues(COLUMN);
            int at = 0;
            reader.initFromPage(values.size(), stream(page, kind));
            while (at < values.size()) {
                int skip = Math.min(random.nextInt(30), values.size() - at);
                reader.skip(skip);
                at += skip;
                if (at < values.size()) {
                    assertThat(reader.readBytes().toStringUsingUTF8())
                            .as("%s: value %d", kind, at)
                            .isEqualTo(values.get(at));
                    at++;
                }
            }
        }
    }

    @Test
    void numbersReadInBulkAreTheValuesWritten() throws Exception {
        Random random = new Random(3);
        int n = 3000;
        ByteBuffer longs = ByteBuffer.allocate(n * 8).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer ints = ByteBuffer.allocate(n * 4).order(ByteOrder.LITTLE_ENDIAN);
        long[] longValues = new long[n];
        int[] intValues = new int[n];
        for (int i = 0; i < n; i++) {
            longValues[i] = random.nextLong();
            intValues[i] = random.nextInt();
            longs.putLong(longValues[i]);
            ints.putInt(intValues[i]);
        }
        for (String kind : List.of("heap", "heap at an offset", "direct")) {
            for (PrimitiveTypeName type : PrimitiveTypeName.values()) {
                boolean wide = type == PrimitiveTypeName.INT64 || type == PrimitiveTypeName.DOUBLE;
                if (!wide && type != PrimitiveTypeName.INT32 && type != PrimitiveTypeName.FLOAT) {
                    continue;
                }
                ColumnDescriptor column =
                        new ColumnDescriptor(
                                new String[] {"n"}, Types.optional(type).named("n"), 0, 1);
                PlainValues reader = new PlainValues(column);
                reader.initFromPage(n, stream((wide ? longs : ints).array(), kind));
                long[] l = new long[n + 5];
                int[] in = new int[n + 5];
                float[] f = new float[n + 5];
                double[] d = new double[n + 5];
                // Chunks of varying size at varying offsets of the output, as batches read them.
                for (int at = 0; at < n; ) {
                    int chunk = Math.min(1 + random.nextInt(700), n - at);
                    int into = random.nextInt(5);
                    switch (type) {
                        case INT64 -> reader.readLongs(l, into, chunk);
                        case DOUBLE -> reader.readDoubles(d, into, chunk);
                        case INT32 -> reader.readInts(in, into, chunk);
                        default -> reader.readFloats(f, into, chunk);
                    }
                    for (int i = 0; i < chunk; i++) {
                        String what = kind + " " + type + " value " + (at + i);
                        switch (type) {
                            case INT64 ->
                                    assertThat(l[into + i]).as(what).isEqualTo(longValues[at + i]);
                            case DOUBLE ->
                                    assertThat(Double.doubleToRawLongBits(d[into + i]))
                                            .as(what)
                                            .isEqualTo(longValues[at + i]);
                            case INT32 ->
                                    assertThat(in[into + i]).as(what).isEqualTo(intValues[at + i]);
                            default ->
                                    assertThat(Float.floatToRawIntBits(f[into + i]))
                                            .as(what)
                                            .isEqualTo(intValues[at + i]);
                        }
                    }
                    at += chunk;
                }
                if (kind.equals("direct")) {
                    assertThatThrownBy(() -> reader.readLongs(l, 0, 1))
                            .isInstanceOf(java.nio.BufferUnderflowException.class);
                } else {
                    assertThatThrownBy(() -> reader.readLongs(l, 0, 1))
                            .as(kind + " " + type + " past the end")
                            .hasMessage(
                                    "A page ends 8 bytes before its 1 values of 8 bytes do: the"
                                            + " page is corrupt");
                }
            }
        }
    }

    @Test
    void aLengthPastTheEndOfThePageIsAnError() throws Exception {
        byte[] page = plain(List.of("abc", "defg"));
        // The second length claims 40 bytes where 4 are left.
        ByteBuffer.wrap(page).order(ByteOrder.LITTLE_ENDIAN).putInt(7, 40);
        PlainValues reader = new PlainValues(COLUMN);
        reader.initFromPage(2, stream(page, "heap at an offset"));
        assertThatThrownBy(() -> reader.skip(2))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(
                        "A plain value of 40 bytes runs past the end of its page, which has 4"
                                + " bytes left: the page is corrupt");

        PlainValues cut = new PlainValues(COLUMN);
        cut.initFromPage(3, stream(plain(List.of("abc", "de")), "heap"));
        cut.skip(2);
        assertThatThrownBy(() -> cut.skip(1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(
                        "A page ends within the length of its value 0 of 1 passed over: the page"
                                + " is corrupt");
    }

    /** PLAIN byte arrays: each value's length (4 bytes, little-endian), then its bytes. */
    private static byte[] plain(List<String> values) {
        int size = 0;
        for (String v : values) {
            size += 4 + v.getBytes(StandardCharsets.UTF_8).length;
        }
        ByteBuffer out = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        for (String v : values) {
            byte[] bytes = v.getBytes(StandardCharsets.UTF_8);
            out.putInt(bytes.length).put(bytes);
        }
        return out.array();
    }

    private static ByteBufferInputStream stream(byte[] page, String kind) {
        return switch (kind) {
            case "heap" -> ByteBufferInputStream.wrap(ByteBuffer.wrap(page));
            case "heap at an offset" -> {
                byte[] padded = new byte[page.length + 13];
                System.arraycopy(page, 0, padded, 13, page.length);
                yield ByteBufferInputStream.wrap(ByteBuffer.wrap(padded, 13, page.length).slice());
            }
            default -> {
                ByteBuffer direct = ByteBuffer.allocateDirect(page.length);
                direct.put(page).flip();
                yield ByteBufferInputStream.wrap(direct);
            }
        };
    }
}
