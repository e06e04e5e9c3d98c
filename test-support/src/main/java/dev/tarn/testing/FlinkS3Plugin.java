package dev.tarn.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.DefaultPluginManager;
import org.apache.flink.core.plugin.PluginDescriptor;

/**
 * Flink's S3 file system ({@code flink-s3-fs-hadoop}) loaded as a plugin, as a Flink distribution
 * loads it from {@code plugins/s3-fs-hadoop/}: in its own class loader, so its unrelocated Hadoop
 * and Jackson never meet the caller's class path. {@link #initialize} points {@code s3://} and
 * {@code s3a://} of this JVM's {@link FileSystem} at an S3-compatible server.
 */
public final class FlinkS3Plugin {

    private FlinkS3Plugin() {}

    /** The keys of Flink's S3 file systems for {@code server}, with its fixed test credentials. */
    public static Map<String, String> settings(S3MockServer server) {
        return Map.of(
                "s3.endpoint", server.endpoint(),
                "s3.path.style.access", "true",
                "s3.access-key", "tarn-test",
                "s3.secret-key", "tarn-test-secret");
    }

    /**
     * The {@code flink-s3-fs-hadoop} jar, for a Flink home's {@code plugins/s3-fs-hadoop/}
     * directory.
     */
    public static Path jar() {
        try {
            return Path.of(S3MockServer.resource("s3-plugin.classpath"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Initializes Flink's file systems of this JVM with {@code settings} (the {@code s3.*} keys)
     * and the S3 plugin. Flink's MiniCluster runs its tasks in this JVM, so they see it too.
     */
    public static void initialize(Map<String, String> settings) {
        Configuration config = Configuration.fromMap(settings);
        try {
            FileSystem.initialize(config, pluginManager(config));
        } catch (RuntimeException e) {
            throw new IllegalStateException("Cannot initialize Flink's S3 file system", e);
        }
    }

    /** Back to the file systems without plugins (local files), for later tests of the JVM. */
    public static void reset() {
        FileSystem.initialize(new Configuration(), null);
    }

    private static DefaultPluginManager pluginManager(Configuration config) {
        String jar;
        try {
            jar = S3MockServer.resource("s3-plugin.classpath");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        URL url;
        try {
            url = new File(jar).toURI().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("Bad plugin jar path " + jar, e);
        }
        PluginDescriptor plugin =
                new PluginDescriptor("s3-fs-hadoop", new URL[] {url}, new String[0]);
        String[] parentFirst = CoreOptions.getPluginParentFirstLoaderPatterns(config);
        return new DefaultPluginManager(List.of(plugin), parentFirst);
    }
}
