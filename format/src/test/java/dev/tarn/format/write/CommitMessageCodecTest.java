package dev.tarn.format.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DataFile.ColumnStats;
import dev.tarn.format.manifest.DataFile.SequenceRange;
import dev.tarn.format.manifest.DataFileCodec;
import dev.tarn.format.manifest.FileContent;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.manifest.Version1Layout;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Commit messages carry each file's content through checkpoints; forms written before files
 * recorded it take it from the names; a file in the list of another content is refused.
 */
class CommitMessageCodecTest {

    private static final Partition PARTITION = new Partition(List.of("d"));

    private static DataFile file(String name, FileContent content) {
        return new DataFile(
                name, content, 10, 1, 0, 0, new SequenceRange(0, 0), ColumnStats.unknown(1), null);
    }

    private static CommitMessage message(List<DataFile> changelog) {
        return new CommitMessage(
                PARTITION,
                1,
                2,
                List.of(file("data-1.parquet", FileContent.DATA)),
                List.of(file("data-0.parquet", FileContent.DATA)),
                changelog);
    }

    @Test
    void eachFileKeepsItsContent() throws IOException {
        // Names that say the other changelog content: what is read back is what was written.
        CommitMessage message =
                message(
                        List.of(
                                file("before-2.parquet", FileContent.CHANGELOG),
                                file("changelog-3.parquet", FileContent.BEFORE_IMAGES)));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CommitMessageCodec.write(new DataOutputStream(bytes), message);

        assertThat(CommitMessageCodec.read(in(bytes.toByteArray()))).isEqualTo(message);
    }

    @Test
    void formsWithoutContentTakeItFromTheFileNames() throws IOException {
        CommitMessage message =
                message(
                        List.of(
                                file("changelog-2.parquet", FileContent.CHANGELOG),
                                file("before-3.parquet", FileContent.BEFORE_IMAGES)));

        assertThat(CommitMessageCodec.readWithoutContent(in(withoutContent(message, true))))
                .isEqualTo(message);
        assertThat(CommitMessageCodec.readWithoutChangelog(in(withoutContent(message, false))))
                .isEqualTo(message.withChangelog(List.of()));
    }

    @Test
    void aFileAmongTheFilesOfAnotherContentIsRefused() {
        DataFile changelog = file("changelog-1.parquet", FileContent.CHANGELOG);
        assertThatThrownBy(
                        () ->
                                new CommitMessage(
                                        PARTITION, 1, 2, List.of(changelog), List.of(), List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Cannot commit file changelog-1.parquet of bucket 1 of partition"
                                + " [d] among the new files: its content is"
                                + " CHANGELOG");
        assertThatThrownBy(
                        () -> message(List.of(file("data-2.parquet", FileContent.DATA), changelog)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Cannot commit file data-2.parquet of bucket 1 of partition"
                                + " [d] among the changelog files: its content"
                                + " is DATA");
    }

    /** {@code message} as writers wrote it before files recorded their content. */
    private static byte[] withoutContent(CommitMessage message, boolean changelog)
            throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        DataFileCodec.writePartition(out, message.partition());
        out.writeInt(message.bucket());
        out.writeInt(message.totalBuckets());
        List<List<DataFile>> lists =
                changelog
                        ? List.of(
                                message.newFiles(),
                                message.deletedFiles(),
                                message.changelogFiles())
                        : List.of(message.newFiles(), message.deletedFiles());
        for (List<DataFile> files : lists) {
            out.writeInt(files.size());
            for (DataFile f : files) {
                Version1Layout.writeFile(out, f);
            }
        }
        out.flush();
        return bytes.toByteArray();
    }

    private static DataInputStream in(byte[] bytes) {
        return new DataInputStream(new ByteArrayInputStream(bytes));
    }
}
