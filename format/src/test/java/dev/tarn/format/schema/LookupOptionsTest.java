package dev.tarn.format.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The lookup join's table options: Paimon's values accepted, every bad value named. */
class LookupOptionsTest {

    private static TableConfig.Lookup lookup(Map<String, String> options) {
        return TableConfig.of("db.t", options).lookup();
    }

    @Test
    void defaultsAreAutoAndUnlimitedDisk() {
        assertThat(lookup(Map.of()))
                .isEqualTo(new TableConfig.Lookup(TableConfig.Lookup.Cache.AUTO, Long.MAX_VALUE));
        assertThat(lookup(Map.of("lookup.cache", "FULL", "lookup.cache-max-disk-size", "2 gb")))
                .isEqualTo(new TableConfig.Lookup(TableConfig.Lookup.Cache.FULL, 2L << 30));
        assertThat(lookup(Map.of("lookup.cache", "auto")).cache())
                .isEqualTo(TableConfig.Lookup.Cache.AUTO);
    }

    @Test
    void badValuesNameTheOptionTheValueAndWhy() {
        assertThatThrownBy(() -> lookup(Map.of("lookup.cache", "partial")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Invalid value 'partial' for option 'lookup.cache' of table db.t:"
                                + " expected one of auto, full");
        assertThatThrownBy(() -> lookup(Map.of("lookup.cache-max-disk-size", "0 b")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Invalid value '0 b' for option 'lookup.cache-max-disk-size' of table"
                                + " db.t: must be positive (leave it unset for no limit)");
        assertThatThrownBy(() -> lookup(Map.of("lookup.cache-max-disk-size", "lots")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(
                        "Invalid value 'lots' for option 'lookup.cache-max-disk-size' of table"
                                + " db.t: ");
    }

    @Test
    void aJoinMaySetThemPerQuery() {
        assertThat(TableOptions.scope("lookup.cache")).contains(TableOptions.OptionScope.QUERY);
        assertThat(TableOptions.scope("lookup.cache-max-disk-size"))
                .contains(TableOptions.OptionScope.QUERY);
    }
}
