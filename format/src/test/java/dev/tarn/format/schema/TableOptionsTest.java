package dev.tarn.format.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.Table;
import dev.tarn.format.TableNotFoundException;
import dev.tarn.format.TestTables;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.schema.TableConfig.FileCompression;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Table options and schemas are checked at CREATE TABLE, with messages naming what is wrong. */
class TableOptionsTest {

    @TempDir java.nio.file.Path tempDir;

    private Path location;

    @BeforeEach
    void setUp() {
        location = new Path(tempDir.toUri());
    }

    private Table create(Map<String, String> options) {
        return TestTables.create(
                FileIO.flinkFileSystems(), location, TestTables.ID_V_DT, List.of("dt"), options);
    }

    /** Fails the create with {@code type} and {@code message}, and leaves no table behind. */
    private void assertRejected(Runnable create, Class<? extends Throwable> type, String message) {
        assertThatThrownBy(create::run).isInstanceOf(type).hasMessage(message);
        assertThatThrownBy(() -> Table.load(FileIO.flinkFileSystems(), location, "db.t"))
                .isInstanceOf(TableNotFoundException.class)
                .hasMessage("Table db.t does not exist: no schema file under %s", location);
    }

    @Test
    void validOptionsAreTyped() {
        Table table =
                create(
                        Map.of(
                                "bucket", "4",
                                "bucket-key", "id",
                                "file.compression", "gzip",
                                "target-file-size", "64 mb",
                                "commit.max-retries", "3",
                                "commit.retry-wait", "250 ms",
                                "connector", "tarn"));
        TableConfig config = table.config();
        assertThat(config.bucket()).isEqualTo(4);
        assertThat(config.compression()).isEqualTo(FileCompression.GZIP);
        assertThat(config.sizes().targetFileSize()).isEqualTo(64L << 20);
        assertThat(config.commit().maxRetries()).isEqualTo(3);
        assertThat(config.commit().retryWait()).isEqualTo(Duration.ofMillis(250));
        assertThat(config.scanSnapshotId()).isNull();
        // Stored, so a loaded table has them too.
        assertThat(Table.load(FileIO.flinkFileSystems(), location, "db.t").config())
                .isEqualTo(config);
    }

    @Test
    void defaults() {
        Table table = create(Map.of());
        TableConfig config = table.config();
        assertThat(config.bucket()).isEqualTo(-1);
        assertThat(config.compression()).isEqualTo(FileCompression.ZSTD);
        assertThat(config.changelogCompression()).isEqualTo(FileCompression.ZSTD);
        assertThat(
                        table.withDynamicOptions(Map.of("file.compression", "none"))
                                .config()
                                .changelogCompression())
                .as("changelog files follow data files unless told otherwise")
                .isEqualTo(FileCompression.NONE);
        assertThat(config.commit().maxRetries()).isEqualTo(20);
        assertThat(config.commit().dynamicPartitionOverwrite()).isTrue();
    }

    @Test
    void decodeThreadsOfEveryReadUnderTheKeyOrItsFormerOne() {
        Table table = create(Map.of());
        assertThat(table.config().decodeThreads()).isEqualTo(2);
        assertThat(decodeThreads(table, Map.of("read.decode-threads", "3"))).isEqualTo(3);
        assertThat(decodeThreads(table, Map.of("streaming-read.decode-threads", "4"))).isEqualTo(4);
        assertThat(
                        decodeThreads(
                                table,
                                Map.of(
                                        "read.decode-threads", "5",
                                        "streaming-read.decode-threads", "4")))
                .as("the key wins over its former one")
                .isEqualTo(5);
        // The former key is a per-query option like the key, and may be stored.
        assertThat(TableOptions.scope("streaming-read.decode-threads"))
                .hasValue(TableOptions.OptionScope.QUERY);
        assertThat(
                        TableConfig.of("db.t", Map.of("streaming-read.decode-threads", "1"))
                                .decodeThreads())
                .isEqualTo(1);
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "read.decode-threads | 0 | Invalid value '0' for option 'read.decode-threads' of"
                        + " table db.t: must be 1 to 16",
                "read.decode-threads | 17 | Invalid value '17' for option 'read.decode-threads'"
                        + " of table db.t: must be 1 to 16",
                "streaming-read.decode-threads | -1 | Invalid value '-1' for option"
                        + " 'streaming-read.decode-threads' of table db.t: must be 1 to 16",
                "streaming-read.decode-threads | two | Invalid value 'two' for option"
                        + " 'streaming-read.decode-threads' of table db.t: "
            })
    void badDecodeThreadsNameTheKeyGivenAndTheValue(String key, String value, String message) {
        Table table = create(Map.of());
        assertThatThrownBy(() -> table.withDynamicOptions(Map.of(key, value)).config())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(message);
    }

    private static int decodeThreads(Table table, Map<String, String> hints) {
        return table.withDynamicOptions(hints).config().decodeThreads();
    }

    @Test
    void unknownOptionNamesOptionAndTable() {
        assertThatThrownBy(() -> create(Map.of("buckets", "4")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(
                        "Unknown option 'buckets' for table db.t. Supported options: [bucket,"
                                + " bucket-key, changelog-file.compression, changelog-producer,"
                                + " commit.lock,"
                                + " commit.lock.jdbc.password, commit.lock.jdbc.url,"
                                + " commit.lock.jdbc.user, commit.lock.timeout, commit.lock.ttl,"
                                + " commit.max-retries,");
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "bucket | abc | Invalid value 'abc' for option 'bucket' of table db.t: ",
                "bucket | 2.5 | Invalid value '2.5' for option 'bucket' of table db.t: ",
                "commit.max-retries | many | Invalid value 'many' for option"
                        + " 'commit.max-retries' of table db.t: ",
                "commit.retry-wait | soon | Invalid value 'soon' for option 'commit.retry-wait'"
                        + " of table db.t: ",
                "target-file-size | big | Invalid value 'big' for option 'target-file-size' of"
                        + " table db.t: ",
                "file.compression | lz5 | Invalid option 'file.compression' of table db.t:"
                        + " Unknown Parquet compression 'lz5'",
                "changelog-file.compression | snappy | Invalid option"
                        + " 'changelog-file.compression' of table db.t: Unknown Parquet"
                        + " compression 'snappy'"
            })
    void unparsableValueNamesOptionAndValue(String key, String value, String message) {
        assertThatThrownBy(() -> create(Map.of(key, value)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(message);
    }

    @ParameterizedTest(name = "bucket = {0}")
    @CsvSource({"0", "-2"})
    void bucketMustBePositiveOrMinusOne(int bucket) {
        assertRejected(
                () -> create(Map.of("bucket", String.valueOf(bucket))),
                IllegalArgumentException.class,
                "Invalid option 'bucket' of table db.t: "
                        + bucket
                        + ". Use a positive number of buckets, or -1 for no bucketing.");
    }

    @Test
    void sizesMustBePositive() {
        assertRejected(
                () -> create(Map.of("target-file-size", "0 b")),
                IllegalArgumentException.class,
                "Invalid value '0 b' for option 'target-file-size' of table db.t: must be positive");
    }

    @Test
    void onlyParquetFiles() {
        assertRejected(
                () -> create(Map.of("file.format", "orc")),
                IllegalArgumentException.class,
                "Invalid option 'file.format' of table db.t: 'orc'. Supported: parquet.");
    }

    @Test
    void queryOptionsAreNotTableOptions() {
        assertRejected(
                () -> create(Map.of("scan.snapshot-id", "1")),
                IllegalArgumentException.class,
                "Option 'scan.snapshot-id' of table db.t applies to one query; give it as a hint,"
                        + " not in CREATE TABLE");
    }

    @Test
    void badHintIsRejected() {
        Table table = create(Map.of());
        assertThatThrownBy(() -> table.withDynamicOptions(Map.of("scan.snapshot-id", "latest")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(
                        "Invalid value 'latest' for option 'scan.snapshot-id' of table db.t: ");
        assertThatThrownBy(() -> table.withDynamicOptions(Map.of("scan.snapshot", "1")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Unknown option 'scan.snapshot' for table db.t.");
    }

    @Test
    void hintMayNotChangeAnOptionOnlyTheTableSets() {
        Table table = create(Map.of("bucket", "4"));
        assertThatThrownBy(() -> table.withDynamicOptions(Map.of("bucket", "8")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Option 'bucket' of table db.t is fixed at creation: the table has '4', the"
                                + " query gives '8'. Create a new table to change it.");
        assertThat(table.withDynamicOptions(Map.of("bucket", "4", "target-file-size", "1 kb")))
                .satisfies(t -> assertThat(t.config().bucket()).isEqualTo(4))
                .satisfies(t -> assertThat(t.config().sizes().targetFileSize()).isEqualTo(1024));
    }

    @Test
    void bucketKeyNeedsBuckets() {
        assertRejected(
                () -> create(Map.of("bucket-key", "id")),
                IllegalArgumentException.class,
                "Option 'bucket-key' = 'id' of table db.t has no effect with 'bucket' = -1 (no"
                        + " bucketing): set 'bucket' to a positive number of buckets, or remove"
                        + " 'bucket-key'");
        assertRejected(
                () -> create(Map.of("bucket", "-1", "bucket-key", "id")),
                IllegalArgumentException.class,
                "Option 'bucket-key' = 'id' of table db.t has no effect with 'bucket' = -1 (no"
                        + " bucketing): set 'bucket' to a positive number of buckets, or remove"
                        + " 'bucket-key'");
    }

    @Test
    void timestampPartitionColumnIsRejected() {
        RowType rowType =
                RowType.of(
                        new LogicalType[] {new BigIntType(), new TimestampType(6)},
                        new String[] {"id", "ts"});
        assertRejected(
                () ->
                        TestTables.create(
                                FileIO.flinkFileSystems(),
                                location,
                                rowType,
                                List.of("ts"),
                                Map.of()),
                IllegalArgumentException.class,
                "Partition column ts of table db.t has unsupported type TIMESTAMP(6); supported:"
                        + " [CHAR, VARCHAR, BOOLEAN, DECIMAL, TINYINT, SMALLINT, INTEGER, BIGINT,"
                        + " DATE]");
    }

    @Test
    void columnTypeParquetCannotStoreIsRejectedAtCreate() {
        RowType rowType =
                RowType.of(
                        new LogicalType[] {
                            new BigIntType(),
                            new org.apache.flink.table.types.logical.YearMonthIntervalType(
                                    org.apache.flink.table.types.logical.YearMonthIntervalType
                                            .YearMonthResolution.YEAR)
                        },
                        new String[] {"id", "span"});
        assertThatThrownBy(
                        () ->
                                TestTables.create(
                                        FileIO.flinkFileSystems(),
                                        location,
                                        rowType,
                                        List.of(),
                                        Map.of()))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessage(
                        "Cannot create table db.t: Parquet data files cannot hold column span of"
                                + " type INTERVAL YEAR(2): the type is not supported");
        assertThatThrownBy(() -> Table.load(FileIO.flinkFileSystems(), location, "db.t"))
                .isInstanceOf(TableNotFoundException.class)
                .hasMessage("Table db.t does not exist: no schema file under %s", location);
    }

    @Test
    void primaryKeyMustBeNotNull() {
        assertRejected(
                () ->
                        Table.create(
                                FileIO.flinkFileSystems(),
                                location,
                                "db.t",
                                TableSchema.create(
                                        TestTables.ID_V, List.of(), List.of("id"), Map.of(), null)),
                IllegalArgumentException.class,
                "Primary-key column id of table db.t must be NOT NULL");
    }

    @Test
    void everyColumnAPartitionKey() {
        RowType onlyDt =
                RowType.of(new LogicalType[] {VarCharType.STRING_TYPE}, new String[] {"dt"});
        assertRejected(
                () ->
                        TestTables.create(
                                FileIO.flinkFileSystems(),
                                location,
                                onlyDt,
                                List.of("dt"),
                                Map.of()),
                IllegalArgumentException.class,
                "Table db.t must have at least one column that is not a partition key");
    }

    @Test
    void partitionedTableWithBucketsHashesByTheOtherColumns() {
        Table table = create(Map.of("bucket", "4"));
        assertThat(table.config().bucket()).isEqualTo(4);
        assertThat(table.schema().bucketKeys()).containsExactly("id", "v");
    }

    @Test
    void bucketKeyMustBeAColumnAndNotAPartitionKey() {
        assertRejected(
                () -> create(Map.of("bucket", "4", "bucket-key", "dt")),
                IllegalArgumentException.class,
                "Bucket key dt of table db.t is a partition column; hashing by it would put each"
                        + " partition in one bucket");
        assertThatThrownBy(() -> create(Map.of("bucket", "4", "bucket-key", "nope")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Bucket key nope is not a column; columns are [id, v, dt]");
    }

    @Test
    void schemaRejectsUnknownOrRepeatedKeys() {
        assertThatThrownBy(
                        () ->
                                TableSchema.create(
                                        TestTables.ID_V, List.of("dt"), List.of(), Map.of(), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Partition key dt is not a column; columns are [id, v]");
        assertThatThrownBy(
                        () ->
                                TableSchema.create(
                                        TestTables.ID_V_DT,
                                        List.of("dt", "dt"),
                                        List.of(),
                                        Map.of(),
                                        null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Partition key dt appears twice");
    }
}
