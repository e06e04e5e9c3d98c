package dev.tarn.format.parquet.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Native and pure-Java zstd write standard frames: each reads what the other wrote. */
class ZstdCodecTest {

    private static byte[] sample() {
        byte[] data = new byte[200_000];
        Random random = new Random(7);
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i % 97 < 60 ? 'a' + random.nextInt(4) : random.nextInt());
        }
        return data;
    }

    private static byte[] roundTrip(ZstdCodec writer, ZstdCodec reader, byte[] data)
            throws Exception {
        byte[] compressed = new byte[writer.maxCompressedLength(data.length)];
        int length = writer.compress(data, 0, data.length, compressed, 0, compressed.length);
        assertThat(length).isLessThan(data.length);
        byte[] out = new byte[data.length];
        assertThat(reader.decompress(compressed, 0, length, out, 0, out.length))
                .isEqualTo(data.length);
        return out;
    }

    @Test
    void nativeLoadsOnThisPlatform() {
        assertThat(ZstdCodec.NativeZstd.AVAILABLE).isTrue();
        assertThat(ZstdCodec.best()).isInstanceOf(ZstdCodec.NativeZstd.class);
    }

    @Test
    void nativeAndJavaReadEachOther() throws Exception {
        byte[] data = sample();
        assertThat(roundTrip(new ZstdCodec.NativeZstd(), new ZstdCodec.JavaZstd(), data))
                .isEqualTo(data);
        assertThat(roundTrip(new ZstdCodec.JavaZstd(), new ZstdCodec.NativeZstd(), data))
                .isEqualTo(data);
    }

    /** One native context compresses page after page, and again after close, as fresh ones do. */
    @Test
    void aReusedNativeContextWritesWhatAFreshOneWrites() throws Exception {
        byte[] data = sample();
        ZstdCodec reused = new ZstdCodec.NativeZstd();
        for (int i = 0; i < 3; i++) {
            int length = data.length - i * 1000;
            byte[] expected = compress(new ZstdCodec.NativeZstd(), data, length);
            assertThat(compress(reused, data, length)).isEqualTo(expected);
            assertThat(expected)
                    .isEqualTo(
                            com.github.luben.zstd.Zstd.compress(
                                    Arrays.copyOf(data, length), ZstdCodec.NATIVE_LEVEL));
            if (i == 1) {
                reused.close();
            }
        }
    }

    private static byte[] compress(ZstdCodec codec, byte[] data, int length) throws Exception {
        byte[] compressed = new byte[codec.maxCompressedLength(length)];
        int written = codec.compress(data, 0, length, compressed, 0, compressed.length);
        return Arrays.copyOf(compressed, written);
    }

    @Test
    void corruptInputFailsWithAnIOException() {
        byte[] garbage = new byte[100];
        Arrays.fill(garbage, (byte) 0x55);
        assertThatThrownBy(
                        () ->
                                new ZstdCodec.NativeZstd()
                                        .decompress(garbage, 0, 100, new byte[10], 0, 10))
                .isInstanceOf(java.io.IOException.class)
                .hasMessage("zstd: Unknown frame descriptor");
    }
}
