package dev.tarn.format.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.DataFile.ColumnStats;
import dev.tarn.format.manifest.DataFile.KeyRange;
import dev.tarn.format.manifest.DataFile.SequenceRange;
import dev.tarn.format.manifest.DataFileCodec;
import dev.tarn.format.manifest.DeletionFile;
import dev.tarn.format.manifest.FileContent;
import dev.tarn.format.manifest.Partition;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A split's binary form keeps each file's deletion vector and the split's kind; the form from
 * before splits carried vectors still reads, as a split without any.
 */
class SplitCodecTest {

    private static DataFile file(String name, long rows) {
        return new DataFile(
                name,
                FileContent.DATA,
                100,
                rows,
                0,
                0,
                new SequenceRange(1, rows),
                ColumnStats.unknown(2),
                new KeyRange(new byte[] {1}, new byte[] {2}));
    }

    private static final List<DataFile> FILES =
            List.of(
                    file("data-1.parquet", 10),
                    file("data-2.parquet", 20),
                    file("data-3.parquet", 5));

    private static final Partition PARTITION = new Partition(List.of("2026-12-01"));

    private static byte[] write(Split split) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        SplitCodec.write(out, split);
        out.flush();
        return bytes.toByteArray();
    }

    private static DataInputStream in(byte[] bytes) {
        return new DataInputStream(new ByteArrayInputStream(bytes));
    }

    /** What logs and messages print of a split: where it is and its files' names, in one line. */
    @Test
    void aSplitsTextNamesItsFilesButNotTheirStatistics() {
        Split split =
                new Split(7, PARTITION, 1, 4, FILES, Split.Kind.SNAPSHOT_BY_FILE)
                        .withVectors(Map.of("data-2.parquet", new DeletionFile("dv-1", 4, 40, 3)));
        assertThat(split.toString())
                .isEqualTo(
                        "Split[snapshot 7, SNAPSHOT_BY_FILE, partition [2026-12-01], bucket 1 of 4,"
                                + " 3 files: data-1.parquet, data-2.parquet, data-3.parquet; 1 with"
                                + " deletion vectors]");
        List<DataFile> many = new java.util.ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            many.add(file("data-" + i + ".parquet", 10));
        }
        assertThat(new Split(7, PARTITION, 1, 4, many, Split.Kind.SNAPSHOT).toString())
                .startsWith(
                        "Split[snapshot 7, SNAPSHOT, partition [2026-12-01], bucket 1 of 4,"
                                + " 1000 files: data-0.parquet, ")
                .endsWith("data-7.parquet, ...]")
                .hasSizeLessThan(300);
    }

    @Test
    void aSplitKeepsEachFilesVectorAndItsKind() throws IOException {
        Split split =
                new Split(7, PARTITION, 1, 4, FILES, Split.Kind.SNAPSHOT_BY_FILE)
                        .withVectors(
                                Map.of(
                                        "data-1.parquet",
                                        new DeletionFile("dv-a.puffin", 4, 40, 3),
                                        "data-3.parquet",
                                        new DeletionFile("dv-b.puffin", 44, 38, 1)));

        Split read = SplitCodec.read(in(write(split)), "7-0");

        assertThat(read).isEqualTo(split);
        assertThat(read.vector(FILES.get(0))).isEqualTo(new DeletionFile("dv-a.puffin", 4, 40, 3));
        assertThat(read.vector(FILES.get(1))).isNull();
        assertThat(read.rowCount()).as("rows less the deleted ones").isEqualTo(35 - 4);
    }

    @Test
    void theFormBeforeVectorsReadsAsASplitWithoutThem() throws IOException {
        // As splits were written before they carried vectors: kind, then the body, files alone.
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeByte(Split.Kind.SNAPSHOT.ordinal());
        out.writeLong(7);
        DataFileCodec.writePartition(out, PARTITION);
        out.writeInt(1);
        out.writeInt(4);
        out.writeInt(FILES.size());
        for (DataFile f : FILES) {
            DataFileCodec.writeFile(out, f);
        }
        out.flush();

        Split read = SplitCodec.readWithoutVectors(in(bytes.toByteArray()), "7-0");

        assertThat(read).isEqualTo(new Split(7, PARTITION, 1, 4, FILES));
        assertThat(read.vectors()).isEmpty();
    }

    @Test
    void aVectorOfAFileOutsideTheSplitIsRefused() {
        Split split = new Split(7, PARTITION, 1, 4, FILES);
        assertThatThrownBy(
                        () ->
                                split.withVectors(
                                        Map.of(
                                                "data-9.parquet",
                                                new DeletionFile("dv-a.puffin", 4, 40, 3))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Split of bucket 1 of partition")
                .hasMessageContaining("deletion vector of data file data-9.parquet")
                .hasMessageContaining("not one of its files");
    }

    @Test
    void anUnknownKindNamesTheSplit() {
        byte[] bytes = {9};
        assertThatThrownBy(() -> SplitCodec.read(in(bytes), "7-3"))
                .isInstanceOf(IOException.class)
                .hasMessage("Corrupt Tarn split 7-3: unknown kind 9");
    }
}
