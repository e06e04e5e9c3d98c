package org.apache.iceberg;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.io.FileIO;

/**
 * The files a data manifest records as deleted, with their sequence numbers and column statistics:
 * Iceberg's public readers return live entries only, and a snapshot's removed files without their
 * statistics.
 */
public final class DeletedEntries {

    private DeletedEntries() {}

    public static List<DataFile> of(
            ManifestFile manifest, FileIO io, Map<Integer, PartitionSpec> specs)
            throws IOException {
        List<DataFile> deleted = new ArrayList<>();
        try (ManifestReader<DataFile> reader = ManifestFiles.read(manifest, io, specs)) {
            for (ManifestEntry<DataFile> entry : reader.entries()) {
                if (entry.status() == ManifestEntry.Status.DELETED) {
                    deleted.add(entry.file().copy());
                }
            }
        }
        return deleted;
    }
}
