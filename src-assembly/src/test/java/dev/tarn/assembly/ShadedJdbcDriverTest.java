package dev.tarn.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/**
 * The PostgreSQL driver bundled for {@code commit.lock = jdbc} survives relocation: the jar alone
 * (no other class path) registers it as a {@code java.sql.Driver} service under its relocated name,
 * and it talks to a real PostgreSQL server.
 */
class ShadedJdbcDriverTest {

    @Test
    void relocatedDriverIsFoundAsAServiceAndConnects() throws Exception {
        URL jar = Path.of(System.getProperty("tarn.jar")).toUri().toURL();
        try (URLClassLoader loader =
                        new URLClassLoader(new URL[] {jar}, ClassLoader.getPlatformClassLoader());
                EmbeddedPostgres server = EmbeddedPostgres.builder().start()) {
            List<Driver> drivers = new ArrayList<>();
            ServiceLoader.load(Driver.class, loader).forEach(drivers::add);
            assertThat(drivers)
                    .extracting(d -> d.getClass().getName())
                    .containsExactly("dev.tarn.shaded.org.postgresql.Driver");

            String url = "jdbc:postgresql://localhost:" + server.getPort() + "/postgres";
            Properties credentials = new Properties();
            credentials.setProperty("user", "postgres");
            try (Connection connection = drivers.get(0).connect(url, credentials);
                    Statement statement = connection.createStatement();
                    ResultSet result = statement.executeQuery("SELECT 40 + 2")) {
                assertThat(result.next()).isTrue();
                assertThat(result.getInt(1)).isEqualTo(42);
            }
        }
    }
}
