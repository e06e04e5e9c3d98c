package dev.tarn.format.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.schema.TableOptions.OptionScope;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which options a query may change, and which ALTER TABLE may change once there is data. */
class OptionChangesTest {

    /** {@code (id BIGINT NOT NULL, v STRING, PRIMARY KEY (id))}. */
    private static final RowType ID_V =
            RowType.of(
                    new LogicalType[] {new BigIntType(false), VarCharType.STRING_TYPE},
                    new String[] {"id", "v"});

    private static TableSchema pk(Map<String, String> options) {
        return TableSchema.create(ID_V, List.of(), List.of("id"), options, null);
    }

    private static final TableSchema PK = pk(Map.of("bucket", "4"));

    private static void perQuery(TableSchema schema, String key, String value) {
        OptionChanges.checkPerQuery("db.pk", schema, Map.of(key, value));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource({
        "bucket, CREATE",
        "bucket-key, CREATE",
        "merge-engine, CREATE",
        "sequence.field, CREATE",
        "ignore-delete, CREATE",
        "num-levels, CREATE",
        "fields.default-aggregate-function, CREATE",
        "fields.total.aggregate-function, CREATE",
        "fields.total.ignore-retract, CREATE",
        "fields.tags.list-agg-delimiter, CREATE",
        "file.format, ALTER",
        "file.compression, QUERY",
        "changelog-file.compression, QUERY",
        "target-file-size, QUERY",
        "scan.snapshot-id, QUERY",
        "scan.timestamp-millis, QUERY",
        "write-buffer-size, QUERY",
        "num-sorted-run.compaction-trigger, QUERY",
        "commit.max-retries, QUERY",
        "manifest.merge-min-count, QUERY",
        "dynamic-partition-overwrite, QUERY"
    })
    void scopeOfEachKindOfOption(String key, OptionScope scope) {
        assertThat(TableOptions.scope(key)).hasValue(scope);
    }

    @Test
    void everyOptionHasAScopeAndUnknownKeysHaveNone() {
        for (ConfigOption<?> option : TableOptions.all()) {
            assertThat(TableOptions.scope(option.key())).as(option.key()).isPresent();
        }
        assertThat(TableOptions.scope("buckets")).isEmpty();
    }

    @Test
    void queryCannotChangeAnOptionFixedAtCreation() {
        assertThatThrownBy(() -> perQuery(PK, "bucket", "8"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Option 'bucket' of table db.pk is fixed at creation: the table has '4',"
                                + " the query gives '8'. Create a new table to change it.");
        assertThatThrownBy(() -> perQuery(PK, "merge-engine", "first-row"))
                .hasMessage(
                        "Option 'merge-engine' of table db.pk is fixed at creation: the table has"
                                + " 'deduplicate' (the default), the query gives 'first-row'."
                                + " Create a new table to change it.");
        assertThatThrownBy(() -> perQuery(PK, "sequence.field", "v"))
                .hasMessageStartingWith(
                        "Option 'sequence.field' of table db.pk is fixed at creation: the table"
                                + " has none, the query gives 'v'.");
        assertThatThrownBy(() -> perQuery(PK, "bucket-key", "v"))
                .hasMessageStartingWith(
                        "Option 'bucket-key' of table db.pk is fixed at creation: the table has"
                                + " 'id' (the default), the query gives 'v'.");
        TableSchema totals =
                pk(Map.of("merge-engine", "aggregation", "fields.v.aggregate-function", "max"));
        assertThatThrownBy(() -> perQuery(totals, "fields.v.aggregate-function", "min"))
                .hasMessageStartingWith(
                        "Option 'fields.v.aggregate-function' of table db.pk is fixed at"
                                + " creation: the table has 'max', the query gives 'min'.");
        assertThatThrownBy(() -> perQuery(totals, "fields.v.ignore-retract", "true"))
                .hasMessageStartingWith(
                        "Option 'fields.v.ignore-retract' of table db.pk is fixed at creation:"
                                + " the table has 'false' (the default), the query gives 'true'.");
    }

    @Test
    void queryCannotChangeAnAlterOnlyOption() {
        assertThatThrownBy(() -> perQuery(PK, "file.format", "orc"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Option 'file.format' of table db.pk may change only with ALTER TABLE ..."
                                + " SET: the table has 'parquet' (the default), the query gives"
                                + " 'orc'.");
    }

    @Test
    void theTablesOwnValueMayBeGivenInAnyForm() {
        TableSchema totals =
                pk(Map.of("merge-engine", "aggregation", "fields.v.aggregate-function", "max"));
        assertThatCode(
                        () -> {
                            perQuery(PK, "bucket", "4");
                            perQuery(PK, "bucket", "04");
                            perQuery(PK, "bucket-key", "id");
                            perQuery(PK, "merge-engine", "deduplicate");
                            perQuery(PK, "ignore-delete", "FALSE");
                            perQuery(PK, "file.format", "parquet");
                            perQuery(totals, "fields.v.aggregate-function", "max");
                            perQuery(totals, "fields.v.ignore-retract", "False");
                            perQuery(totals, "fields.v.list-agg-delimiter", ",");
                        })
                .doesNotThrowAnyException();
    }

    @Test
    void queryOptionsMayTakeAnyValue() {
        assertThatCode(
                        () ->
                                OptionChanges.checkPerQuery(
                                        "db.pk",
                                        PK,
                                        Map.of(
                                                "scan.snapshot-id", "1",
                                                "write-buffer-size", "1 mb",
                                                "target-file-size", "1 kb",
                                                "file.compression", "none",
                                                "commit.retry-wait", "1 s",
                                                "manifest.target-file-size", "1 mb")))
                .doesNotThrowAnyException();
    }

    @Test
    void alterMayChangeFixedOptionsOnlyWhileTheTableHasNoSnapshot() {
        TableSchema firstRow = pk(Map.of("bucket", "4", "merge-engine", "first-row"));
        assertThatCode(() -> OptionChanges.checkAlter("db.pk", PK, firstRow, OptionalLong.empty()))
                .doesNotThrowAnyException();
        assertThatThrownBy(
                        () -> OptionChanges.checkAlter("db.pk", PK, firstRow, OptionalLong.of(3)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Cannot alter table db.pk: option 'merge-engine' is fixed once the table"
                                + " has data (it is at snapshot 3): the table has 'deduplicate'"
                                + " (the default), ALTER TABLE gives 'first-row'. Create a new"
                                + " table to change it.");
        // RESET counts as a change when the default differs.
        assertThatThrownBy(
                        () -> OptionChanges.checkAlter("db.pk", firstRow, PK, OptionalLong.of(3)))
                .hasMessageContaining(
                        "the table has 'first-row', ALTER TABLE gives 'deduplicate' (the default)");
        TableSchema rekeyed = pk(Map.of("bucket", "4", "bucket-key", "v"));
        assertThatThrownBy(() -> OptionChanges.checkAlter("db.pk", PK, rekeyed, OptionalLong.of(3)))
                .hasMessageContaining(
                        "option 'bucket-key' is fixed once the table has data (it is at snapshot"
                                + " 3): the table has 'id' (the default), ALTER TABLE gives 'v'.");
    }

    @Test
    void alterMayChangeOtherOptionsAndRestateFixedOnes() {
        TableSchema tuned =
                pk(
                        Map.of(
                                "bucket", "4",
                                "bucket-key", "id",
                                "merge-engine", "deduplicate",
                                "file.format", "parquet",
                                "target-file-size", "1 mb"));
        assertThatCode(() -> OptionChanges.checkAlter("db.pk", PK, tuned, OptionalLong.of(3)))
                .doesNotThrowAnyException();
    }
}
