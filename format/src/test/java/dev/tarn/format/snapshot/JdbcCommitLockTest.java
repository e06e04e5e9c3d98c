package dev.tarn.format.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.TestTables;
import dev.tarn.format.io.FileIO;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JDBC commit lock against a real PostgreSQL: exclusion, expiry, and what its errors say. */
class JdbcCommitLockTest {

    @TempDir java.nio.file.Path tempDir;

    /** A lock key of its own per test, as each table has its own location. */
    private final String key = "file:/lake/db.db/t-" + UUID.randomUUID();

    private static JdbcCommitLock lock(String key, Duration timeout, Duration ttl) {
        return new JdbcCommitLock(
                "db.t",
                key,
                new JdbcCommitLock.Settings(
                        LockDatabase.url(), LockDatabase.USER, null, timeout, ttl));
    }

    @Test
    void aHeldLockMakesTheNextWaitAndTheTimeoutNamesTableLockAndOption() throws IOException {
        try (CommitLock.Lease held =
                lock(key, Duration.ofSeconds(5), Duration.ofMinutes(1)).acquire()) {
            JdbcCommitLock waiter = lock(key, Duration.ofMillis(300), Duration.ofMinutes(1));
            long start = System.nanoTime();

            assertThatThrownBy(waiter::acquire)
                    .isInstanceOf(IOException.class)
                    .hasMessageStartingWith(
                            "Cannot commit to table db.t: the commit lock on "
                                    + key
                                    + " (table tarn_commit_locks of "
                                    + LockDatabase.url()
                                    + ") was not free within commit.lock.timeout = 300 ms; it is"
                                    + " held by ")
                    .hasMessageEndingWith(". Nothing was published");
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .isGreaterThan(Duration.ofMillis(300));
        }
        // Released: the next one takes it at once.
        lock(key, Duration.ofMillis(300), Duration.ofMinutes(1)).acquire().close();
    }

    @Test
    void aLockOfACrashedHolderExpiresAfterItsTimeToLive() throws Exception {
        // A holder takes the lock and dies without releasing it: its row stays behind.
        CommitLock.Lease crashed =
                lock(key, Duration.ofSeconds(5), Duration.ofSeconds(1)).acquire();
        long start = System.nanoTime();

        try (CommitLock.Lease next =
                lock(key, Duration.ofSeconds(30), Duration.ofSeconds(30)).acquire()) {
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .isGreaterThan(Duration.ofMillis(500))
                    .isLessThan(Duration.ofSeconds(10));
            // The crashed holder, come back, finds its lock gone before it writes.
            assertThatThrownBy(crashed::renew)
                    .isInstanceOf(IOException.class)
                    .hasMessage(
                            "Cannot commit to table db.t: lost the commit lock on "
                                    + key
                                    + " before writing (held longer than commit.lock.ttl = 1 s);"
                                    + " nothing was published");
            next.renew();
        }
        crashed.close(); // Releases nothing: the row is the new holder's, and gone.
        assertThat(rows(key)).isZero();
    }

    @Test
    void aWrongUrlNamesTheUrlWithoutPasswordAndTheCause() {
        String url = "jdbc:postgresql://127.0.0.1:1/tarn?password=s3cret";
        JdbcCommitLock lock =
                new JdbcCommitLock(
                        "db.t",
                        key,
                        new JdbcCommitLock.Settings(
                                url,
                                "tarn",
                                "s3cret",
                                Duration.ofSeconds(1),
                                Duration.ofSeconds(1)));

        assertThatThrownBy(lock::acquire)
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith(
                        "Cannot take the commit lock of table db.t in"
                                + " jdbc:postgresql://127.0.0.1:1/tarn?password=***: cannot"
                                + " connect as user 'tarn': Connection to 127.0.0.1:1 refused")
                .message()
                .doesNotContain("s3cret");
    }

    @Test
    void wrongCredentialsNameTheUserAndTheServersReason() {
        JdbcCommitLock lock =
                new JdbcCommitLock(
                        "db.t",
                        key,
                        new JdbcCommitLock.Settings(
                                LockDatabase.url(),
                                "nobody",
                                "s3cret",
                                Duration.ofSeconds(1),
                                Duration.ofSeconds(1)));

        assertThatThrownBy(lock::acquire)
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith(
                        "Cannot take the commit lock of table db.t in "
                                + LockDatabase.url()
                                + ": cannot connect as user 'nobody': ")
                .hasMessageContaining("\"nobody\"")
                .message()
                .doesNotContain("s3cret");
    }

    @Test
    void aLockedPublishCreatesOnceAndNeverReplaces() throws IOException {
        FileIO io = new NonExclusiveFileIO();
        SnapshotCommit commit =
                new LockedSnapshotCommit(
                        io, lock(key, Duration.ofSeconds(5), Duration.ofSeconds(30)));
        Path target = new Path(new Path(tempDir.toUri()), "snapshot-1");

        assertThat(commit.publish(target, bytes("first"))).isTrue();
        assertThat(commit.publish(target, bytes("second"))).isFalse();

        assertThat(io.readAllBytes(target)).isEqualTo(bytes("first"));
        assertThat(rows(key)).isZero();
    }

    @Test
    void lockOptionsAreCheckedNamingOptionAndValue() {
        Path location = new Path(tempDir.toUri());
        assertThatThrownBy(
                        () ->
                                TestTables.create(
                                        FileIO.flinkFileSystems(),
                                        location,
                                        TestTables.ID_V,
                                        java.util.List.of(),
                                        Map.of("commit.lock", "zookeeper")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Invalid value 'zookeeper' for option 'commit.lock' of table db.t:"
                                + " expected one of none, jdbc");
        assertThatThrownBy(
                        () ->
                                SnapshotCommit.withLock(
                                        SnapshotCommit.forFileSystem(FileIO.flinkFileSystems()),
                                        FileIO.flinkFileSystems(),
                                        "db.t",
                                        location,
                                        Map.of("commit.lock", "jdbc")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Option 'commit.lock.jdbc.url' of table db.t is required with"
                                + " 'commit.lock' = 'jdbc'");
        assertThatThrownBy(
                        () ->
                                CommitLockOptions.validate(
                                        "table db.t",
                                        Map.of(
                                                "commit.lock", "jdbc",
                                                "commit.lock.jdbc.url", "jdbc:postgresql://db/x",
                                                "commit.lock.ttl", "0 s")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Invalid value '0 s' for option 'commit.lock.ttl' of table db.t: must be"
                                + " positive");
        assertThat(
                        SnapshotCommit.withLock(
                                SnapshotCommit.forFileSystem(FileIO.flinkFileSystems()),
                                FileIO.flinkFileSystems(),
                                "db.t",
                                location,
                                Map.of("commit.lock", "NONE")))
                .isInstanceOf(FileSystemSnapshotCommit.class);
    }

    @Test
    void urlsLoseTheirPasswordsInMessages() {
        assertThat(JdbcCommitLock.redacted("jdbc:postgresql://db/x?user=a&password=pw&ssl=true"))
                .isEqualTo("jdbc:postgresql://db/x?user=a&password=***&ssl=true");
        assertThat(JdbcCommitLock.redacted("jdbc:mysql://a:pw@db:3306/x"))
                .isEqualTo("jdbc:mysql://a:***@db:3306/x");
        assertThat(
                        new JdbcCommitLock.Settings(
                                        "jdbc:postgresql://db/x?password=pw",
                                        "tarn",
                                        "s3cret",
                                        Duration.ofSeconds(1),
                                        Duration.ofSeconds(2))
                                .toString())
                .isEqualTo(
                        "Settings[url=jdbc:postgresql://db/x?password=***, user=tarn, timeout=PT1S,"
                                + " ttl=PT2S]");
    }

    private static long rows(String key) {
        try (Connection c = LockDatabase.connect();
                Statement s = c.createStatement();
                ResultSet r =
                        s.executeQuery(
                                "SELECT count(*) FROM tarn_commit_locks WHERE lock_key = '"
                                        + key
                                        + "'")) {
            r.next();
            return r.getLong(1);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
