package dev.tarn.format.io;

import static dev.tarn.format.io.FaultInjectingFileIO.manifestFiles;
import static dev.tarn.format.io.FaultInjectingFileIO.named;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.io.FaultInjectingFileIO.Op;
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

    @Test
    void failsOnlyTheNthMatchingCall() throws IOException {
        io.failNth(Op.TRY_CREATE_EXCLUSIVE, named("snapshot-"), 2);

        assertThat(io.tryCreateExclusive(path("snapshot-1"), new byte[1])).isTrue();
        assertThat(io.tryCreateExclusive(path("other"), new byte[1])).isTrue();
        assertThatThrownBy(() -> io.tryCreateExclusive(path("snapshot-2"), new byte[1]))
                .isInstanceOf(IOException.class)
                .hasMessage("Injected failure of TRY_CREATE_EXCLUSIVE on " + path("snapshot-2"));
        assertThat(io.exists(path("snapshot-2"))).isFalse();
        assertThat(io.tryCreateExclusive(path("snapshot-3"), new byte[1])).isTrue();

        assertThat(io.calls(Op.TRY_CREATE_EXCLUSIVE)).isEqualTo(4);
        assertThat(io.calls(Op.TRY_CREATE_EXCLUSIVE, named("snapshot-"))).isEqualTo(3);
        assertThat(io.calls(Op.EXISTS)).isEqualTo(1);
    }

    @Test
    void failAfterLetsTheCallTakeEffect() throws IOException {
        io.failAfterNth(Op.TRY_CREATE_EXCLUSIVE, named("snapshot-"), 1);

        assertThatThrownBy(() -> io.tryCreateExclusive(path("snapshot-1"), new byte[] {7}))
                .isInstanceOf(IOException.class)
                .hasMessage("Injected failure after TRY_CREATE_EXCLUSIVE on " + path("snapshot-1"));
        assertThat(io.readAllBytes(path("snapshot-1"))).containsExactly(7);
    }

    @Test
    void manifestFilesAreNotManifestLists() throws IOException {
        io.failAlways(Op.TRY_CREATE_EXCLUSIVE, manifestFiles());

        assertThat(io.tryCreateExclusive(path("manifest-list-1"), new byte[1])).isTrue();
        assertThatThrownBy(() -> io.tryCreateExclusive(path("manifest-1"), new byte[1]))
                .isInstanceOf(IOException.class)
                .hasMessage("Injected failure of TRY_CREATE_EXCLUSIVE on " + path("manifest-1"));
        assertThatThrownBy(() -> io.tryCreateExclusive(path("manifest-2"), new byte[1]))
                .isInstanceOf(IOException.class)
                .hasMessage("Injected failure of TRY_CREATE_EXCLUSIVE on " + path("manifest-2"));

        io.heal();
        assertThat(io.tryCreateExclusive(path("manifest-3"), new byte[1])).isTrue();
    }

    @Test
    void hookRunsBeforeTheRealCall() throws IOException {
        io.beforeNth(
                Op.TRY_CREATE_EXCLUSIVE,
                named("snapshot-"),
                1,
                (p, real) -> real.tryCreateExclusive(p, new byte[] {1}));

        assertThat(io.tryCreateExclusive(path("snapshot-1"), new byte[] {2})).isFalse();
        assertThat(io.readAllBytes(path("snapshot-1"))).containsExactly(1);
    }
}
