package dev.tarn.format.snapshot;

import java.io.IOException;
import java.io.Serializable;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import javax.annotation.Nullable;
import org.apache.flink.util.TimeUtils;

/**
 * A {@link CommitLock} held as a row of the table {@code tarn_commit_locks} in a database reached
 * through plain {@code java.sql} (PostgreSQL first; any database with a primary key and SQLSTATE
 * class 23 for its violation will do). Taking the lock inserts the row of the table's location; the
 * primary key lets exactly one insert win, and the others wait and retry until {@code
 * commit.lock.timeout}. Releasing deletes the row. Each row carries an expiry (now + {@code
 * commit.lock.ttl}, renewed right before the write), and a waiter deletes an expired row first, so
 * a holder that crashed blocks others for at most the time to live.
 *
 * <p>Why a row and not PostgreSQL's session advisory locks: an advisory lock is released only when
 * the server notices its session is gone, which for a holder behind a dead network path or in a
 * stalled process can take as long as TCP keepalive allows, with nothing a waiter can do; and it
 * exists in PostgreSQL only. A row with an expiry bounds that wait by a setting and is the same SQL
 * on every database. Its price: expiry uses the committers' clocks, so they must agree to well
 * within the time to live, and a holder must finish its write within it (one small file).
 */
final class JdbcCommitLock implements CommitLock {

    private static final long serialVersionUID = 1L;

    /** The lock table; one row per held lock. */
    static final String TABLE = "tarn_commit_locks";

    /** The first wait between attempts; doubled up to {@link #MAX_WAIT_MILLIS}, with jitter. */
    private static final long FIRST_WAIT_MILLIS = 5;

    /** Bounds a waiter's lag behind a release while keeping the database's load low. */
    private static final long MAX_WAIT_MILLIS = 200;

    /** The lock database and how long to wait for and hold a lock. */
    record Settings(
            String url,
            @Nullable String user,
            @Nullable String password,
            Duration timeout,
            Duration ttl)
            implements Serializable {

        /** Without the password, and with any password in the URL redacted. */
        @Override
        public String toString() {
            return String.format(
                    "Settings[url=%s, user=%s, timeout=%s, ttl=%s]",
                    redacted(url), user, timeout, ttl);
        }
    }

    private final String table;
    private final String key;
    private final Settings settings;
    private transient boolean tableReady;

    /**
     * @param table how messages name the table, e.g. {@code db.orders}
     * @param key what the lock is for: the table's location
     */
    JdbcCommitLock(String table, String key, Settings settings) {
        this.table = table;
        this.key = key;
        this.settings = settings;
    }

    @Override
    public Lease acquire() throws IOException {
        Connection connection = connect();
        try {
            ensureTable(connection);
            String owner = owner();
            long deadline = System.nanoTime() + settings.timeout().toNanos();
            long wait = FIRST_WAIT_MILLIS;
            while (true) {
                long now = System.currentTimeMillis();
                deleteExpired(connection, now);
                if (tryInsert(connection, owner, now + settings.ttl().toMillis())) {
                    return new JdbcLease(connection, owner);
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new IOException(timeoutMessage(holder(connection)));
                }
                sleep(
                        Math.min(
                                wait + ThreadLocalRandom.current().nextLong(wait),
                                left / 1_000_000));
                wait = Math.min(wait * 2, MAX_WAIT_MILLIS);
            }
        } catch (SQLException e) {
            close(connection);
            throw new IOException(describe() + ": " + e.getMessage(), e);
        } catch (IOException | RuntimeException e) {
            close(connection);
            throw e;
        }
    }

    private final class JdbcLease implements Lease {
        private final Connection connection;
        private final String owner;

        JdbcLease(Connection connection, String owner) {
            this.connection = connection;
            this.owner = owner;
        }

        @Override
        public void renew() throws IOException {
            String sql = "UPDATE " + TABLE + " SET expires_at = ? WHERE lock_key = ? AND owner = ?";
            try (PreparedStatement update = connection.prepareStatement(sql)) {
                update.setLong(1, System.currentTimeMillis() + settings.ttl().toMillis());
                update.setString(2, key);
                update.setString(3, owner);
                if (update.executeUpdate() != 1) {
                    throw new IOException(
                            String.format(
                                    "Cannot commit to table %s: lost the commit lock on %s before"
                                            + " writing (held longer than commit.lock.ttl = %s);"
                                            + " nothing was published",
                                    table, key, TimeUtils.formatWithHighestUnit(settings.ttl())));
                }
            } catch (SQLException e) {
                throw new IOException(describe() + ": cannot renew it: " + e.getMessage(), e);
            }
        }

        @Override
        public void close() {
            String sql = "DELETE FROM " + TABLE + " WHERE lock_key = ? AND owner = ?";
            try (PreparedStatement delete = connection.prepareStatement(sql)) {
                delete.setString(1, key);
                delete.setString(2, owner);
                delete.executeUpdate();
            } catch (SQLException e) {
                // The row expires after commit.lock.ttl; the publish itself is done.
            } finally {
                JdbcCommitLock.close(connection);
            }
        }
    }

    private boolean tryInsert(Connection connection, String owner, long expiresAt)
            throws SQLException {
        String sql = "INSERT INTO " + TABLE + " (lock_key, owner, expires_at) VALUES (?, ?, ?)";
        try (PreparedStatement insert = connection.prepareStatement(sql)) {
            insert.setString(1, key);
            insert.setString(2, owner);
            insert.setLong(3, expiresAt);
            insert.executeUpdate();
            return true;
        } catch (SQLException e) {
            if (e.getSQLState() != null && e.getSQLState().startsWith("23")) {
                return false; // Integrity constraint violation: someone holds the lock.
            }
            throw e;
        }
    }

    private void deleteExpired(Connection connection, long now) throws SQLException {
        String sql = "DELETE FROM " + TABLE + " WHERE lock_key = ? AND expires_at < ?";
        try (PreparedStatement delete = connection.prepareStatement(sql)) {
            delete.setString(1, key);
            delete.setLong(2, now);
            delete.executeUpdate();
        }
    }

    /** Who holds the lock and until when, for the timeout message. */
    private String holder(Connection connection) throws SQLException {
        String sql = "SELECT owner, expires_at FROM " + TABLE + " WHERE lock_key = ?";
        try (PreparedStatement select = connection.prepareStatement(sql)) {
            select.setString(1, key);
            try (ResultSet row = select.executeQuery()) {
                return row.next()
                        ? row.getString(1) + " until " + Instant.ofEpochMilli(row.getLong(2))
                        : "nobody now";
            }
        }
    }

    private String timeoutMessage(String holder) {
        return String.format(
                "Cannot commit to table %s: the commit lock on %s (table %s of %s) was not free"
                        + " within commit.lock.timeout = %s; it is held by %s. Nothing was"
                        + " published",
                table,
                key,
                TABLE,
                redacted(settings.url()),
                TimeUtils.formatWithHighestUnit(settings.timeout()),
                holder);
    }

    private String describe() {
        return String.format(
                "Cannot take the commit lock of table %s in %s", table, redacted(settings.url()));
    }

    private void ensureTable(Connection connection) throws SQLException {
        if (tableReady) {
            return;
        }
        try (Statement statement = connection.createStatement()) {
            try {
                statement.executeQuery("SELECT lock_key FROM " + TABLE + " WHERE 1 = 0").close();
            } catch (SQLException missing) {
                try {
                    statement.executeUpdate(
                            "CREATE TABLE "
                                    + TABLE
                                    + " (lock_key VARCHAR(1024) NOT NULL PRIMARY KEY,"
                                    + " owner VARCHAR(255) NOT NULL, expires_at BIGINT NOT NULL)");
                } catch (SQLException raced) {
                    // Another committer created it meanwhile; if not, this query says why.
                    statement
                            .executeQuery("SELECT lock_key FROM " + TABLE + " WHERE 1 = 0")
                            .close();
                }
            }
        }
        tableReady = true;
    }

    /**
     * Connects through the driver for the URL that this class's loader sees (the one bundled with
     * Tarn, or one beside it), then through {@link DriverManager}: under Flink's class loaders
     * DriverManager alone may not see a driver loaded with Tarn.
     */
    private Connection connect() throws IOException {
        Properties properties = new Properties();
        if (settings.user() != null) {
            properties.setProperty("user", settings.user());
        }
        if (settings.password() != null) {
            properties.setProperty("password", settings.password());
        }
        try {
            Connection connection = null;
            for (Driver driver : ServiceLoader.load(Driver.class, getClass().getClassLoader())) {
                if (driver.acceptsURL(settings.url())) {
                    connection = driver.connect(settings.url(), properties);
                    break;
                }
            }
            if (connection == null) {
                connection = DriverManager.getConnection(settings.url(), properties);
            }
            connection.setAutoCommit(true);
            return connection;
        } catch (SQLException e) {
            throw new IOException(
                    String.format(
                            "%s: cannot connect as user '%s': %s",
                            describe(),
                            settings.user() == null ? "" : settings.user(),
                            e.getMessage()),
                    e);
        }
    }

    /**
     * The URL as messages show it: a password in it ({@code password=...}, {@code user:pw@host})
     * replaced by {@code ***}.
     */
    static String redacted(String url) {
        return url.replaceAll("(?i)(password=)[^&;]*", "$1***")
                .replaceAll("//([^/:@]*):[^/@]*@", "//$1:***@");
    }

    /** Names the holder in messages and in the row: the process, and this acquisition. */
    private static String owner() {
        return ManagementFactory.getRuntimeMXBean().getName()
                + "/"
                + UUID.randomUUID().toString().substring(0, 8);
    }

    private static void sleep(long millis) throws IOException {
        try {
            Thread.sleep(Math.max(1, millis));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while waiting for a commit lock", e);
        }
    }

    private static void close(Connection connection) {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // Nothing is held any more, or the server drops it with the session.
        }
    }
}
