package dev.tarn.format.io;

import static dev.tarn.format.io.FaultInjectingFileIO.manifestFiles;
import static dev.tarn.format.io.FaultInjectingFileIO.named;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.io.FaultInjectingFileIO.Op;
import dev.tarn.format.snapshot.SnapshotCommit;
import java.io.IOException;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The test double fails exactly the calls it is told to, so the tests built on it mean something.
 */
class FaultInjectingFileIOTest {

    @TempDir java.nio.file.Path tempDir;

    private final FaultInjectingFileIO io = new FaultInjectingFileIO();

    private Path path(String name) {
        return new Path(new Path(tempDir.toUri()), name);
    }

    /** Creates a file as commits create snapshots, so through the wrapper's LINK. */
    private boolean publish(Path path, byte[] content) throws IOException {
        return SnapshotCommit.forFileSystem(io).publish(path, content);
    }

    @Test
    void failsOnlyTheNthMatchingCall() throws IOException {
        io.failNth(Op.LINK, named("snapshot-"), 2);

        assertThat(publish(path("snapshot-1"), new byte[1])).isTrue();
        assertThat(publish(path("other"), new byte[1])).isTrue();
        assertThatThrownBy(() -> publish(path("snapshot-2"), new byte[1]))
                .isInstanceOf(IOException.class)
                .hasMessage("Injected failure of LINK on " + path("snapshot-2"));
        assertThat(io.exists(path("snapshot-2"))).isFalse();
        assertThat(publish(path("snapshot-3"), new byte[1])).isTrue();

        assertThat(io.calls(Op.LINK)).isEqualTo(4);
        assertThat(io.calls(Op.LINK, named("snapshot-"))).isEqualTo(3);
        // Each publish looks for the file first; the test looked once itself.
        assertThat(io.calls(Op.EXISTS)).isEqualTo(5);
    }

    @Test
    void failAfterLetsTheCallTakeEffect() throws IOException {
        io.failAfterNth(Op.LINK, named("snapshot-"), 1);

        assertThatThrownBy(() -> publish(path("snapshot-1"), new byte[] {7}))
                .isInstanceOf(IOException.class)
                .hasMessage("Injected failure after LINK on " + path("snapshot-1"));
        assertThat(io.readAllBytes(path("snapshot-1"))).containsExactly(7);
    }

    @Test
    void manifestFilesAreNotManifestLists() throws IOException {
        io.failAlways(Op.LINK, manifestFiles());

        assertThat(publish(path("manifest-list-1"), new byte[1])).isTrue();
        assertThatThrownBy(() -> publish(path("manifest-1"), new byte[1]))
                .isInstanceOf(IOException.class)
                .hasMessage("Injected failure of LINK on " + path("manifest-1"));
        assertThatThrownBy(() -> publish(path("manifest-2"), new byte[1]))
                .isInstanceOf(IOException.class)
                .hasMessage("Injected failure of LINK on " + path("manifest-2"));

        io.heal();
        assertThat(publish(path("manifest-3"), new byte[1])).isTrue();
    }

    @Test
    void hookRunsBeforeTheRealCall() throws IOException {
        io.beforeNth(
                Op.LINK,
                named("snapshot-"),
                1,
                (p, real) -> SnapshotCommit.forFileSystem(real).publish(p, new byte[] {1}));

        assertThat(publish(path("snapshot-1"), new byte[] {2})).isFalse();
        assertThat(io.readAllBytes(path("snapshot-1"))).containsExactly(1);
    }
}
