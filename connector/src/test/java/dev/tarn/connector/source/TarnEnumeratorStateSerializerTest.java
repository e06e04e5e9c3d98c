package dev.tarn.connector.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The enumerator's checkpoint keeps the table's watermark and the readers' reports. */
class TarnEnumeratorStateSerializerTest {

    private final TarnEnumeratorStateSerializer serializer = new TarnEnumeratorStateSerializer();

    @Test
    void version3KeepsTheWatermarkAndTheReports() throws Exception {
        assertThat(serializer.getVersion()).isEqualTo(3);
        TarnEnumeratorState state =
                new TarnEnumeratorState(
                        9, List.of(), Map.of("7-0", 7L), 4_000L, Map.of(8L, 6_000L));
        assertThat(serializer.deserialize(3, serializer.serialize(state))).isEqualTo(state);
        TarnEnumeratorState none = new TarnEnumeratorState(9, List.of(), Map.of(), null, Map.of());
        assertThat(serializer.deserialize(3, serializer.serialize(none))).isEqualTo(none);
    }

    @Test
    void version2IsReadWithoutAWatermark() throws Exception {
        TarnEnumeratorState state =
                new TarnEnumeratorState(9, List.of(), Map.of("7-0", 7L), null, Map.of());
        byte[] v3 = serializer.serialize(state);
        // Version 2 is version 3 without the absent watermark's flag and the empty reports.
        byte[] v2 = Arrays.copyOf(v3, v3.length - 1 - Integer.BYTES);
        assertThat(serializer.deserialize(2, v2)).isEqualTo(state);
        assertThatThrownBy(() -> serializer.deserialize(4, v3))
                .hasMessage(
                        "Cannot read a Tarn enumerator checkpoint of version 4; supported"
                                + " versions: [1, 2, 3]");
    }
}
