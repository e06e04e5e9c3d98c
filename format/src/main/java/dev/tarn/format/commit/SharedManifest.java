package dev.tarn.format.commit;

import dev.tarn.format.manifest.ManifestEntry;
import dev.tarn.format.manifest.ManifestFile;
import dev.tarn.format.manifest.ManifestList.ManifestFileMeta;
import java.io.IOException;
import java.util.List;
import javax.annotation.Nullable;

/**
 * A manifest whose entries do not depend on the latest snapshot (an append's new files, a
 * changelog): written once, by a commit's first attempt, and shared by its later ones. If the
 * commit fails, no snapshot references it, and {@link #deleteIfWritten} removes it.
 */
final class SharedManifest {

    private final ManifestFile file;
    private final long schemaId;
    @Nullable private ManifestFileMeta written;

    SharedManifest(ManifestFile file, long schemaId) {
        this.file = file;
        this.schemaId = schemaId;
    }

    /** The manifest of {@code entries}, written at the first call; the same entries every time. */
    ManifestFileMeta get(List<ManifestEntry> entries) throws IOException {
        if (written == null) {
            written = file.write(entries, schemaId);
        }
        return written;
    }

    void deleteIfWritten() {
        if (written != null) {
            file.delete(written.fileName());
        }
    }
}
