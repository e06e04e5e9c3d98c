package dev.tarn.format.snapshot;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;

/**
 * The table options of a commit lock ({@code commit.lock} and its settings), for stores whose
 * create-if-absent is not atomic: with a lock, every committer of the table publishes under it
 * ({@link SnapshotCommit#withLock}). Every committer of one table must use the same lock, so these
 * are best set once as catalog options, which the catalog passes to each of its tables; a table's
 * own options are stored in its schema file in plain text, so the password belongs there only if
 * the warehouse is as private as the database.
 */
public final class CommitLockOptions {

    /** The kinds of commit lock, by their option value. */
    enum Kind {
        /** No lock: the store's own exclusive create (a hard link, an exclusive rename). */
        NONE,
        /** A row in a table of a database reached through JDBC ({@link JdbcCommitLock}). */
        JDBC;

        String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public static final ConfigOption<String> COMMIT_LOCK =
            ConfigOptions.key("commit.lock")
                    .stringType()
                    .defaultValue(Kind.NONE.key())
                    .withDescription(
                            "How commits of the table exclude each other: 'none' (the store's own"
                                    + " atomic create-if-absent: a hard link on local files, a"
                                    + " rename on HDFS) or 'jdbc' (a lock row in a database, for"
                                    + " stores without one). Every committer of a table must use"
                                    + " the same lock.");

    public static final ConfigOption<String> JDBC_URL =
            ConfigOptions.key("commit.lock.jdbc.url")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "JDBC URL of the database that holds the locks (required with"
                                    + " 'commit.lock' = 'jdbc'), e.g."
                                    + " 'jdbc:postgresql://db:5432/tarn'. Tarn creates its table"
                                    + " 'tarn_commit_locks' there if missing.");

    public static final ConfigOption<String> JDBC_USER =
            ConfigOptions.key("commit.lock.jdbc.user")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("User of the lock database.");

    public static final ConfigOption<String> JDBC_PASSWORD =
            ConfigOptions.key("commit.lock.jdbc.password")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Password of the lock database user; never shown in messages. Set it"
                                    + " as a catalog option: table options are stored in the"
                                    + " table's schema file.");

    public static final ConfigOption<Duration> TIMEOUT =
            ConfigOptions.key("commit.lock.timeout")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(1))
                    .withDescription(
                            "How long a commit waits for the lock before it fails (the commit's"
                                    + " files stay, so a retry can still publish them).");

    public static final ConfigOption<Duration> TTL =
            ConfigOptions.key("commit.lock.ttl")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(30))
                    .withDescription(
                            "A held lock expires this long after it was taken or last renewed"
                                    + " (just before the write), so a crashed holder blocks"
                                    + " commits at most this long. Must exceed the time one"
                                    + " metadata file takes to write, and the clock skew between"
                                    + " committers.");

    /** Every commit lock option, in the order the README lists them. */
    public static List<ConfigOption<?>> all() {
        return List.of(COMMIT_LOCK, JDBC_URL, JDBC_USER, JDBC_PASSWORD, TIMEOUT, TTL);
    }

    /**
     * Checks the lock options of a table or a catalog, as {@link #lock} would.
     *
     * @param owner how messages name whose options they are: {@code table db.t}, {@code catalog
     *     lake}
     * @throws IllegalArgumentException naming the owner, the option and the value if one is
     *     unknown, missing or invalid
     */
    public static void validate(String owner, Map<String, String> options) {
        settings(owner, options);
    }

    /**
     * The lock {@code options} ask for, keyed by {@code key} (the table's location): empty for
     * {@code none}.
     *
     * @throws IllegalArgumentException naming the table, the option and the value if one is
     *     unknown, missing or invalid
     */
    static Optional<CommitLock> lock(String table, String key, Map<String, String> options) {
        return settings("table " + table, options)
                .map(settings -> new JdbcCommitLock(table, key, settings));
    }

    private static Optional<JdbcCommitLock.Settings> settings(
            String owner, Map<String, String> options) {
        Configuration conf = Configuration.fromMap(options);
        Kind kind = kind(owner, get(owner, conf, COMMIT_LOCK));
        if (kind == Kind.NONE) {
            return Optional.empty();
        }
        String url = get(owner, conf, JDBC_URL);
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException(
                    String.format(
                            "Option '%s' of %s is required with '%s' = '%s'",
                            JDBC_URL.key(), owner, COMMIT_LOCK.key(), kind.key()));
        }
        JdbcCommitLock.Settings settings =
                new JdbcCommitLock.Settings(
                        url,
                        get(owner, conf, JDBC_USER),
                        get(owner, conf, JDBC_PASSWORD),
                        positive(owner, conf, TIMEOUT),
                        positive(owner, conf, TTL));
        return Optional.of(settings);
    }

    private static Kind kind(String owner, String value) {
        for (Kind kind : Kind.values()) {
            if (kind.key().equals(value.trim().toLowerCase(Locale.ROOT))) {
                return kind;
            }
        }
        throw new IllegalArgumentException(
                String.format(
                        "Invalid value '%s' for option '%s' of %s: expected one of %s",
                        value,
                        COMMIT_LOCK.key(),
                        owner,
                        Arrays.stream(Kind.values())
                                .map(Kind::key)
                                .collect(Collectors.joining(", "))));
    }

    private static Duration positive(
            String owner, Configuration conf, ConfigOption<Duration> option) {
        Duration value = get(owner, conf, option);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid value '%s' for option '%s' of %s: must be positive",
                            conf.toMap().get(option.key()), option.key(), owner));
        }
        return value;
    }

    private static <T> T get(String owner, Configuration conf, ConfigOption<T> option) {
        try {
            return conf.get(option);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid value '%s' for option '%s' of %s: %s",
                            conf.toMap().get(option.key()), option.key(), owner, e.getMessage()),
                    e);
        }
    }

    private CommitLockOptions() {}
}
