package dev.tarn.assembly.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster test's class path holds Tarn only as the shaded jar, and no Hadoop, S3Mock, Spring or
 * AWS SDK.
 */
class FlinkRuntimeTest {

    @TempDir Path dir;

    @Test
    void clusterRunsFlinkJarsAndTheShadedJar() throws IOException {
        Path flink = jar("flink-core.jar", "org/apache/flink/Core.class");
        Path client = jar("flink-sql-client.jar", "org/apache/flink/table/client/SqlClient.class");
        Path tarn = jar("tarn-flink.jar", "dev/tarn/catalog/TarnCatalog.class");
        FlinkRuntime runtime = new FlinkRuntime(List.of(flink), List.of(client), tarn);
        assertThat(runtime.clusterClassPath()).containsExactly(flink, tarn);
        assertThat(runtime.sqlClientClassPath()).containsExactly(flink, tarn, client);
    }

    @Test
    void refusesTarnClassesOutsideTheShadedJar() throws IOException {
        Path leaked = jar("tarn-catalog.jar", "dev/tarn/catalog/TarnCatalog.class");
        Path tarn = jar("tarn-flink.jar", "dev/tarn/catalog/TarnCatalog.class");
        assertThatThrownBy(() -> new FlinkRuntime(List.of(leaked), List.of(), tarn))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Flink's class path must hold neither Tarn (but as its shaded jar) nor"
                                + " Hadoop, S3Mock, Spring or the AWS SDK, but "
                                + leaked
                                + " has dev/tarn/catalog/TarnCatalog.class");
        assertThatThrownBy(() -> new FlinkRuntime(List.of(tarn), List.of(), tarn))
                .hasMessage(
                        "Flink's class path must not hold Tarn's shaded jar " + tarn + " itself");
    }

    @Test
    void refusesHadoop() throws IOException {
        Path hadoop = jar("hadoop-common.jar", "org/apache/hadoop/fs/FileSystem.class");
        Path tarn = jar("tarn-flink.jar", "dev/tarn/catalog/TarnCatalog.class");
        assertThatThrownBy(() -> new FlinkRuntime(List.of(), List.of(hadoop), tarn))
                .hasMessageEndingWith(hadoop + " has org/apache/hadoop/fs/FileSystem.class");
    }

    @Test
    void refusesTheTestsS3ServerAndClients() throws IOException {
        Path tarn = jar("tarn-flink.jar", "dev/tarn/catalog/TarnCatalog.class");
        for (String entry :
                List.of(
                        "com/adobe/testing/s3mock/S3MockApplication.class",
                        "org/springframework/boot/SpringApplication.class",
                        "software/amazon/awssdk/services/s3/S3Client.class")) {
            Path leaked = jar("leaked.jar", entry);
            assertThatThrownBy(() -> new FlinkRuntime(List.of(leaked), List.of(), tarn))
                    .hasMessageEndingWith(leaked + " has " + entry);
        }
    }

    private Path jar(String name, String entry) throws IOException {
        Path jar = dir.resolve(name);
        try (OutputStream out = Files.newOutputStream(jar);
                JarOutputStream jarOut = new JarOutputStream(out)) {
            jarOut.putNextEntry(new JarEntry(entry));
            jarOut.closeEntry();
        }
        return jar;
    }
}
