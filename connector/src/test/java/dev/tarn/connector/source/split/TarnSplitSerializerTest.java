package dev.tarn.connector.source.split;

import static dev.tarn.connector.ContentForms.file;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.connector.ContentForms;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.FileContent;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.read.Split;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.eventtime.TimestampAssigner;
import org.junit.jupiter.api.Test;

/**
 * A split keeps each file's content and deletion vector, its event time and whether its position
 * counts filtered rows; splits of version 5 at a position read every row, those of version 4 have
 * no event time, those of version 3 no vectors, and those of version 2 take the content from the
 * file names.
 */
class TarnSplitSerializerTest {

    /** The commit time of a split's snapshot. */
    private static final long COMMITTED = 1_764_000_000_123L;

    private final TarnSplitSerializer serializer = new TarnSplitSerializer();

    private static TarnSplit split(List<DataFile> files, long eventTime) {
        return new TarnSplit(
                "7-0",
                new Split(7, Partition.EMPTY, 0, 2, files, Split.Kind.CHANGELOG),
                1,
                42,
                eventTime,
                false);
    }

    /** A split of one data file, read file by file. */
    private static Split oneFile() {
        return new Split(
                7,
                Partition.EMPTY,
                0,
                2,
                List.of(file("data-1.parquet", FileContent.DATA)),
                Split.Kind.SNAPSHOT_BY_FILE);
    }

    /** {@code split} as a version 5 split: without the filter flag. */
    private byte[] version5(TarnSplit split) throws Exception {
        return ContentForms.withoutFilterFlag(serializer.serialize(split), split);
    }

    /** {@code split} as a version 4 split: without an event time. */
    private byte[] version4(TarnSplit split) throws Exception {
        return ContentForms.withoutEventTime(version5(split), split);
    }

    @Test
    void version6KeepsWhetherThePositionCountsFilteredRows() throws Exception {
        assertThat(serializer.getVersion()).isEqualTo(6);
        Split files = oneFile();
        for (TarnSplit split :
                List.of(
                        TarnSplit.of("7-0", files, COMMITTED),
                        new TarnSplit("7-0", files, 0, 9, COMMITTED, true),
                        new TarnSplit("7-0", files, 1, 0, COMMITTED, false))) {
            assertThat(serializer.deserialize(6, serializer.serialize(split))).isEqualTo(split);
        }
        assertThat(TarnSplit.of("7-0", files, COMMITTED).filtersRows()).isTrue();
    }

    @Test
    void version5SplitsFilterRowsOnlyIfNotStarted() throws Exception {
        Split files = oneFile();
        TarnSplit fresh = TarnSplit.of("7-0", files, COMMITTED);
        assertThat(serializer.deserialize(5, version5(fresh))).isEqualTo(fresh);
        // A version 5 reader counted every row of the file: its successor must too.
        for (TarnSplit started :
                List.of(
                        new TarnSplit("7-0", files, 0, 9, COMMITTED, true),
                        new TarnSplit("7-0", files, 1, 0, COMMITTED, true))) {
            assertThat(serializer.deserialize(5, version5(started)))
                    .isEqualTo(
                            new TarnSplit(
                                    "7-0",
                                    files,
                                    started.fileIndex(),
                                    started.rowsInFile(),
                                    COMMITTED,
                                    false));
        }
    }

    @Test
    void version5KeepsEachFilesContentAndVectorAndTheEventTime() throws Exception {
        // Names that say another content: what is read back is what was written.
        TarnSplit split =
                split(
                        List.of(
                                file("changelog-1.parquet", FileContent.BEFORE_IMAGES),
                                file("before-2.parquet", FileContent.DATA),
                                file("data-3.parquet", FileContent.CHANGELOG)),
                        COMMITTED);
        assertThat(serializer.deserialize(5, version5(split))).isEqualTo(split);

        List<DataFile> data = List.of(file("data-1.parquet", FileContent.DATA));
        TarnSplit withVector =
                new TarnSplit(
                        "7-1",
                        new Split(7, Partition.EMPTY, 0, 2, data, Split.Kind.SNAPSHOT_BY_FILE)
                                .withVectors(
                                        Map.of(
                                                "data-1.parquet",
                                                new DeletionFile("dv-1.puffin", 4, 40, 3))),
                        0,
                        5,
                        COMMITTED,
                        false);
        assertThat(serializer.deserialize(5, version5(withVector))).isEqualTo(withVector);
    }

    @Test
    void version4HasNoEventTime() throws Exception {
        TarnSplit split = split(List.of(file("data-1.parquet", FileContent.DATA)), COMMITTED);

        assertThat(serializer.deserialize(4, version4(split)))
                .isEqualTo(split(split.split().files(), TimestampAssigner.NO_TIMESTAMP));
    }

    @Test
    void version3HasNoVectors() throws Exception {
        List<DataFile> files = List.of(file("data-1.parquet", FileContent.DATA));
        TarnSplit split = split(files, TimestampAssigner.NO_TIMESTAMP);
        byte[] v3 = ContentForms.withoutVectors(version4(split), split.split());

        assertThat(serializer.deserialize(3, v3)).isEqualTo(split);
    }

    @Test
    void version2TakesTheContentFromTheFileNames() throws Exception {
        List<DataFile> files =
                List.of(
                        file("before-1.parquet", FileContent.BEFORE_IMAGES),
                        file("data-2.parquet", FileContent.DATA),
                        file("changelog-3.parquet", FileContent.CHANGELOG));
        TarnSplit split = split(files, TimestampAssigner.NO_TIMESTAMP);
        byte[] v2 =
                ContentForms.withoutContent(
                        ContentForms.withoutVectors(version4(split), split.split()), files);

        assertThat(serializer.deserialize(2, v2)).isEqualTo(split);
        assertThatThrownBy(() -> serializer.deserialize(7, v2))
                .hasMessage(
                        "Cannot read a Tarn split of version 7; supported versions: [1, 2, 3, 4,"
                                + " 5, 6]");
    }
}
