package dev.tarn.connector.sink;

import static dev.tarn.connector.ContentForms.file;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.connector.ContentForms;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.FileContent;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.manifest.VectorChange;
import dev.tarn.format.write.CommitMessage;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A committable keeps each file's content; committables of version 3 take it from the file names.
 */
class TarnCommittableSerializerTest {

    private final TarnCommittableSerializer serializer = new TarnCommittableSerializer();

    private static TarnCommittable committable(List<DataFile> changelog) {
        CommitMessage message =
                new CommitMessage(
                        Partition.EMPTY,
                        0,
                        2,
                        List.of(file("data-1.parquet", FileContent.DATA)),
                        List.of(),
                        changelog);
        return new TarnCommittable(new CommitUser("job", 1), 5, List.of(message), 9L);
    }

    @Test
    void version5KeepsEachFilesContentAndVectorChanges() throws Exception {
        assertThat(serializer.getVersion()).isEqualTo(5);
        // Names that say the other changelog content: what is read back is what was written.
        TarnCommittable committable =
                committable(
                        List.of(
                                file("before-2.parquet", FileContent.CHANGELOG),
                                file("changelog-3.parquet", FileContent.BEFORE_IMAGES)));
        assertThat(serializer.deserialize(5, serializer.serialize(committable)))
                .isEqualTo(committable);
        TarnCommittable withVectors =
                new TarnCommittable(
                        committable.user(),
                        committable.checkpointId(),
                        List.of(
                                committable
                                        .messages()
                                        .get(0)
                                        .withVectors(
                                                List.of(
                                                        new VectorChange(
                                                                "data-1.parquet",
                                                                null,
                                                                new DeletionFile(
                                                                        "dv-1.puffin",
                                                                        4,
                                                                        40,
                                                                        3))))),
                        committable.watermark());
        assertThat(serializer.deserialize(5, serializer.serialize(withVectors)))
                .isEqualTo(withVectors);
    }

    @Test
    void version3TakesTheContentFromTheFileNames() throws Exception {
        TarnCommittable committable =
                committable(
                        List.of(
                                file("changelog-2.parquet", FileContent.CHANGELOG),
                                file("before-3.parquet", FileContent.BEFORE_IMAGES)));
        byte[] v3 =
                ContentForms.withoutContent(
                        ContentForms.withoutVectorCounts(
                                serializer.serialize(committable), committable),
                        committable.messages().stream()
                                .flatMap(
                                        m ->
                                                java.util.stream.Stream.concat(
                                                        m.newFiles().stream(),
                                                        m.changelogFiles().stream()))
                                .toList());

        assertThat(serializer.deserialize(3, v3)).isEqualTo(committable);
        assertThat(
                        serializer.deserialize(
                                4,
                                ContentForms.withoutVectorCounts(
                                        serializer.serialize(committable), committable)))
                .isEqualTo(committable);
        assertThatThrownBy(() -> serializer.deserialize(6, v3))
                .hasMessage(
                        "Cannot read a Tarn committable of version 6; supported versions: [1, 2,"
                                + " 3, 4, 5]");
    }
}
