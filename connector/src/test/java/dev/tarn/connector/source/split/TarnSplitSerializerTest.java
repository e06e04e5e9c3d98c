package dev.tarn.connector.source.split;

import static dev.tarn.connector.ContentForms.file;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.connector.ContentForms;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.FileContent;
import dev.tarn.format.manifest.Partition;
import dev.tarn.format.read.Split;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A split keeps each file's content; splits of version 2 take it from the file names. */
class TarnSplitSerializerTest {

    private final TarnSplitSerializer serializer = new TarnSplitSerializer();

    private static TarnSplit split(List<DataFile> files) {
        return new TarnSplit(
                "7-0", new Split(7, Partition.EMPTY, 0, 2, files, Split.Kind.CHANGELOG), 1, 42);
    }

    @Test
    void version3KeepsEachFilesContent() throws Exception {
        assertThat(serializer.getVersion()).isEqualTo(3);
        // Names that say another content: what is read back is what was written.
        TarnSplit split =
                split(
                        List.of(
                                file("changelog-1.parquet", FileContent.BEFORE_IMAGES),
                                file("before-2.parquet", FileContent.DATA),
                                file("data-3.parquet", FileContent.CHANGELOG)));
        assertThat(serializer.deserialize(3, serializer.serialize(split))).isEqualTo(split);
    }

    @Test
    void version2TakesTheContentFromTheFileNames() throws Exception {
        List<DataFile> files =
                List.of(
                        file("before-1.parquet", FileContent.BEFORE_IMAGES),
                        file("data-2.parquet", FileContent.DATA),
                        file("changelog-3.parquet", FileContent.CHANGELOG));
        byte[] v2 = ContentForms.withoutContent(serializer.serialize(split(files)), files);

        assertThat(serializer.deserialize(2, v2)).isEqualTo(split(files));
        assertThatThrownBy(() -> serializer.deserialize(4, v2))
                .hasMessage("Cannot read a Tarn split of version 4; supported versions: [1, 2, 3]");
    }
}
