package dev.tarn.format.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.schema.TableOptions.OptionScope;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.junit.jupiter.api.Test;

/** Each table option's scope is declared with the option, once. */
class TableOptionTest {

    @Test
    void hintOnlyOptionsAreThoseOfOneQuery() {
        assertThat(TableOptions.queryOnly().stream().map(ConfigOption::key))
                .containsExactlyInAnyOrder(
                        "scan.snapshot-id",
                        "scan.timestamp-millis",
                        "incremental-between",
                        "consumer-id",
                        "scan.tag-name");
        for (ConfigOption<?> option : TableOptions.queryOnly()) {
            assertThat(TableOptions.scope(option.key())).hasValue(OptionScope.QUERY);
        }
    }

    @Test
    void anOptionDeclaredTwiceIsRefused() {
        assertThatThrownBy(
                        () ->
                                TableOptions.byKey(
                                        List.of(
                                                TableOption.perQuery(FileOptions.FILE_FORMAT),
                                                TableOption.byAlter(FileOptions.FILE_FORMAT))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Option 'file.format' is declared twice: per query, then ALTER TABLE");
    }

    @Test
    void aHintOnlyOptionIsPerQuery() {
        assertThatThrownBy(
                        () ->
                                new TableOption<>(
                                        TableOptions.SCAN_SNAPSHOT_ID, OptionScope.ALTER, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Option 'scan.snapshot-id' is never stored, so it can only be per query");
    }
}
