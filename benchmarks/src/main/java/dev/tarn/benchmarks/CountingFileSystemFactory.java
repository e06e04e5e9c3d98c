package dev.tarn.benchmarks;

import java.net.URI;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemFactory;

/**
 * Registers {@link CountingFileSystem} with Flink (through {@code META-INF/services}), so any
 * client of Flink's file systems (Tarn's, and Paimon's on a scheme it has no file IO of its own
 * for) reaches it by a {@code countfs://} path.
 */
public final class CountingFileSystemFactory implements FileSystemFactory {

    @Override
    public String getScheme() {
        return CountingFileSystem.SCHEME;
    }

    @Override
    public FileSystem create(URI fsUri) {
        return new CountingFileSystem();
    }
}
