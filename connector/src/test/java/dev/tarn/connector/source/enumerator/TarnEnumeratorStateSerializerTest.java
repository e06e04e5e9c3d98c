package dev.tarn.connector.source.enumerator;

import static dev.tarn.connector.ContentForms.file;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.connector.ContentForms;
import dev.tarn.connector.source.split.TarnSplit;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.FileContent;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.read.Split;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.eventtime.TimestampAssigner;
import org.junit.jupiter.api.Test;

/**
 * The enumerator's checkpoint keeps the table's watermark, the readers' reports and its pending
 * splits with each file's content, their event time and whether their position counts filtered
 * rows.
 */
class TarnEnumeratorStateSerializerTest {

    private final TarnEnumeratorStateSerializer serializer = new TarnEnumeratorStateSerializer();

    @Test
    void version7KeepsTheWatermarkTheReportsAndTheSplits() throws Exception {
        assertThat(serializer.getVersion()).isEqualTo(7);
        TarnSplit pending =
                new TarnSplit(
                        "8-1",
                        new Split(
                                8,
                                Partition.EMPTY,
                                1,
                                2,
                                List.of(file("changelog-1.parquet", FileContent.BEFORE_IMAGES)),
                                Split.Kind.CHANGELOG),
                        0,
                        0,
                        1_764_000_000_123L,
                        true);
        TarnEnumeratorState state =
                new TarnEnumeratorState(
                        9, List.of(pending), Map.of("7-0", 7L), 4_000L, Map.of(8L, 6_000L));
        assertThat(serializer.deserialize(7, serializer.serialize(state))).isEqualTo(state);
        TarnEnumeratorState none = new TarnEnumeratorState(9, List.of(), Map.of(), null, Map.of());
        assertThat(serializer.deserialize(7, serializer.serialize(none))).isEqualTo(none);
    }

    /** {@code state}'s bytes as version 6 wrote them: its split without the filter flag. */
    private byte[] version6(TarnEnumeratorState state, TarnSplit pending) throws Exception {
        return ContentForms.withoutFilterFlag(serializer.serialize(state), pending);
    }

    @Test
    void version6HoldsSplitsWithoutTheFilterFlag() throws Exception {
        Split split =
                new Split(
                        8,
                        Partition.EMPTY,
                        1,
                        2,
                        List.of(file("data-1.parquet", FileContent.DATA)),
                        Split.Kind.SNAPSHOT);
        // A pending split not started filters its rows; one at a position counted all of them.
        TarnSplit fresh = new TarnSplit("8-1", split, 0, 0, 1_764_000_000_123L, true);
        TarnSplit started = new TarnSplit("8-2", split, 0, 17, 1_764_000_000_123L, true);
        TarnEnumeratorState state =
                new TarnEnumeratorState(9, List.of(fresh, started), Map.of(), 4_000L, Map.of());
        byte[] v6 =
                ContentForms.withoutFilterFlag(
                        ContentForms.withoutFilterFlag(serializer.serialize(state), fresh),
                        started);

        assertThat(serializer.deserialize(6, v6).pending())
                .containsExactly(
                        fresh, new TarnSplit("8-2", split, 0, 17, 1_764_000_000_123L, false));
    }

    @Test
    void version5HoldsSplitsWithoutAnEventTime() throws Exception {
        Split split =
                new Split(
                        8,
                        Partition.EMPTY,
                        1,
                        2,
                        List.of(file("data-1.parquet", FileContent.DATA)),
                        Split.Kind.SNAPSHOT);
        TarnSplit pending = new TarnSplit("8-1", split, 0, 0, TimestampAssigner.NO_TIMESTAMP, true);
        TarnEnumeratorState state =
                new TarnEnumeratorState(9, List.of(pending), Map.of(), 4_000L, Map.of());
        byte[] v5 = ContentForms.withoutEventTime(version6(state, pending), pending);

        assertThat(serializer.deserialize(5, v5)).isEqualTo(state);
    }

    @Test
    void version4HoldsSplitsWithoutVectors() throws Exception {
        Split split =
                new Split(
                        8,
                        Partition.EMPTY,
                        1,
                        2,
                        List.of(file("data-1.parquet", FileContent.DATA)),
                        Split.Kind.SNAPSHOT);
        TarnSplit pending = new TarnSplit("8-1", split, 0, 0, TimestampAssigner.NO_TIMESTAMP, true);
        TarnEnumeratorState state =
                new TarnEnumeratorState(9, List.of(pending), Map.of(), null, Map.of());
        byte[] v4 =
                ContentForms.withoutVectors(
                        ContentForms.withoutEventTime(version6(state, pending), pending), split);

        assertThat(serializer.deserialize(4, v4)).isEqualTo(state);
    }

    @Test
    void version3HoldsSplitsWhoseFileNamesTellTheirContent() throws Exception {
        List<DataFile> files =
                List.of(
                        file("before-1.parquet", FileContent.BEFORE_IMAGES),
                        file("data-2.parquet", FileContent.DATA));
        TarnSplit pending =
                new TarnSplit(
                        "8-1",
                        new Split(8, Partition.EMPTY, 1, 2, files, Split.Kind.CHANGELOG),
                        0,
                        0,
                        TimestampAssigner.NO_TIMESTAMP,
                        true);
        TarnEnumeratorState state =
                new TarnEnumeratorState(9, List.of(pending), Map.of(), 4_000L, Map.of());
        byte[] v3 =
                ContentForms.withoutContent(
                        ContentForms.withoutVectors(
                                ContentForms.withoutEventTime(version6(state, pending), pending),
                                pending.split()),
                        files);

        assertThat(serializer.deserialize(3, v3)).isEqualTo(state);
    }

    @Test
    void version2IsReadWithoutAWatermark() throws Exception {
        TarnEnumeratorState state =
                new TarnEnumeratorState(9, List.of(), Map.of("7-0", 7L), null, Map.of());
        byte[] v7 = serializer.serialize(state);
        // Version 2 is version 7 without the absent watermark's flag and the empty reports.
        byte[] v2 = Arrays.copyOf(v7, v7.length - 1 - Integer.BYTES);
        assertThat(serializer.deserialize(2, v2)).isEqualTo(state);
        assertThatThrownBy(() -> serializer.deserialize(8, v7))
                .hasMessage(
                        "Cannot read a Tarn enumerator checkpoint of version 8; supported"
                                + " versions: [1, 2, 3, 4, 5, 6, 7]");
    }
}
