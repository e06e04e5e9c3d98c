package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.factories.FactoryUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Creating and opening a catalog from options, as {@code CREATE CATALOG} does. */
class TarnCatalogFactoryTest {

    @TempDir java.nio.file.Path dir;

    private static Catalog create(Map<String, String> options) {
        Map<String, String> all = new HashMap<>(options);
        all.put("type", "tarn");
        return FactoryUtil.createCatalog(
                "lake", all, new Configuration(), TarnCatalogFactoryTest.class.getClassLoader());
    }

    @Test
    void factoryIsDiscoveredAndReadsItsOptions() {
        Catalog catalog =
                create(
                        Map.of(
                                "warehouse",
                                dir.resolve("lake").toUri().toString(),
                                "default-database",
                                "main"));
        catalog.open();
        assertThat(catalog).isInstanceOf(TarnCatalog.class);
        assertThat(catalog.getDefaultDatabase()).isEqualTo("main");
        assertThat(dir.resolve("lake/main.db")).isDirectory();
    }

    @Test
    void warehouseWithoutSchemeIsAnAbsoluteLocalPath() {
        Catalog catalog = create(Map.of("warehouse", dir.resolve("plain").toString()));
        catalog.open();
        assertThat(dir.resolve("plain/default.db")).isDirectory();
    }

    @Test
    void missingWarehouseIsReported() {
        assertThatThrownBy(() -> create(Map.of()))
                .rootCause()
                .hasMessageContaining("Missing required options")
                .hasMessageContaining("warehouse");
    }

    @Test
    void unknownOptionIsReported() {
        assertThatThrownBy(
                        () -> create(Map.of("warehouse", dir.toUri().toString(), "warehous", "x")))
                .rootCause()
                .hasMessageContaining("Unsupported options")
                .hasMessageContaining("warehous");
    }

    @Test
    void relativeWarehouseIsReported() {
        assertThatThrownBy(() -> create(Map.of("warehouse", "lake")))
                .rootCause()
                .hasMessageContaining("'warehouse'")
                .hasMessageContaining("'lake' is relative");
    }

    @Test
    void warehouseUnderARegularFileFailsAtOpen() throws Exception {
        Files.writeString(dir.resolve("file"), "not a directory");
        String warehouse = dir.resolve("file").toUri() + "/lake";
        Catalog catalog = create(Map.of("warehouse", warehouse));
        assertThatThrownBy(catalog::open)
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("Cannot open catalog lake")
                .hasMessageContaining("/file/lake")
                .hasMessageContaining("cannot be created or written");
    }

    @Test
    void readOnlyWarehouseFailsAtOpen() throws Exception {
        java.nio.file.Path readOnly = dir.resolve("ro");
        Files.createDirectories(readOnly);
        Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            // A superuser writes anyway; the check only means something for other users.
            assumeThat(Files.isWritable(readOnly)).isFalse();
            Catalog catalog = create(Map.of("warehouse", readOnly.toUri().toString()));
            assertThatThrownBy(catalog::open)
                    .isInstanceOf(CatalogException.class)
                    .hasMessageContaining("Cannot open catalog lake")
                    .hasMessageContaining("/ro")
                    .hasMessageContaining("cannot be created or written");
        } finally {
            Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }
}
