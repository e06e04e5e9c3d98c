package dev.tarn.format.parquet.codec;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The block codecs' own failures, apart from any Parquet file. */
class BlockCodecTest {

    @Test
    void aCorruptLz4PageFailsNamingTheCodec() {
        byte[] garbage = new byte[100];
        java.util.Arrays.fill(garbage, (byte) 0xF5);
        assertThatThrownBy(
                        () -> new BlockCodec.Lz4().decompress(garbage, 0, 100, new byte[10], 0, 10))
                .isInstanceOf(java.io.IOException.class)
                .hasMessageStartingWith("lz4: ");
    }
}
