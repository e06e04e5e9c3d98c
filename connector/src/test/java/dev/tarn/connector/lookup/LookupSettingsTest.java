package dev.tarn.connector.lookup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

/** The lookup join's connector options and its key paths, as the planner hands them over. */
class LookupSettingsTest {

    @Test
    void defaultsAndGivenValues() {
        assertThat(LookupSettings.of("t", Map.of())).isEqualTo(new LookupSettings(false, 16));
        assertThat(
                        LookupSettings.of(
                                "t",
                                Map.of("lookup.async", "TRUE", "lookup.async-thread-number", "4")))
                .isEqualTo(new LookupSettings(true, 4));
    }

    @Test
    void badValuesNameOptionValueTableAndReason() {
        assertThatThrownBy(() -> LookupSettings.of("lake.db.t", Map.of("lookup.async", "yes")))
                .isInstanceOf(ValidationException.class)
                .hasMessage(
                        "Invalid value 'yes' for option 'lookup.async' of table lake.db.t: must be"
                                + " 'true' or 'false'");
        for (String bad : new String[] {"0", "1025", "many"}) {
            assertThatThrownBy(
                            () ->
                                    LookupSettings.of(
                                            "lake.db.t", Map.of("lookup.async-thread-number", bad)))
                    .hasMessage(
                            "Invalid value '"
                                    + bad
                                    + "' for option 'lookup.async-thread-number' of table"
                                    + " lake.db.t: must be a whole number from 1 to 1024");
        }
    }

    @Test
    void joinKeysAreTheNamedColumnsInThePlannersOrder() {
        RowType read =
                RowType.of(
                        new LogicalType[] {new BigIntType(), new VarCharType(), new IntType()},
                        new String[] {"id", "name", "tier"});
        assertThat(TarnLookupJoin.joinKeys("t", read, new int[][] {{2}, {0}}))
                .containsExactly("tier", "id");
        assertThatThrownBy(() -> TarnLookupJoin.joinKeys("lake.db.t", read, new int[][] {{1, 0}}))
                .isInstanceOf(ValidationException.class)
                .hasMessage(
                        "Cannot look up table lake.db.t by the nested field at index path [1, 0]:"
                                + " a Tarn lookup join equates top-level columns only");
    }
}
