package dev.tarn.catalog.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.manifest.Partition;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Names of partition values: NULL as {@code \N}, every string its own name, and back. */
class PartitionNamesTest {

    private static final List<String> AWKWARD =
            Arrays.asList(
                    null,
                    "",
                    "__DEFAULT_PARTITION__",
                    "a/b",
                    "x=y",
                    "%2F",
                    "\\N",
                    "\\\\N",
                    "\\",
                    "N",
                    "null",
                    "NULL",
                    "a\\N");

    @Test
    void everyValueHasANameOfItsOwnThatNamesItBack() {
        Set<String> names = new HashSet<>();
        for (String value : AWKWARD) {
            String name = PartitionNames.name(value);
            assertThat(names.add(name)).as("name %s of %s is new", name, value).isTrue();
            assertThat(PartitionNames.value("k", name)).isEqualTo(value);
        }
        assertThat(PartitionNames.name(null)).isEqualTo("\\N");
        assertThat(PartitionNames.name("\\N")).isEqualTo("\\\\N");
        assertThat(PartitionNames.name("__DEFAULT_PARTITION__")).isEqualTo("__DEFAULT_PARTITION__");
        assertThat(PartitionNames.value("k", null)).as("a spec built in code").isNull();
    }

    @Test
    void aNameWithOneLeadingBackslashThatIsNotNullIsRefused() {
        for (String name : List.of("\\", "\\x", "\\n")) {
            assertThatThrownBy(() -> PartitionNames.value("dt", name))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(
                            "value '"
                                    + name
                                    + "' of dt starts with a backslash but is neither \\N (NULL)"
                                    + " nor a doubled backslash; '\\"
                                    + name
                                    + "' names the value "
                                    + name);
        }
    }

    @Test
    void aPartitionsTextIsItsKeysWithTheNamesOfItsValues() {
        assertThat(PartitionNames.text(List.of("dt", "hh"), Partition.of("a/b", null)))
                .isEqualTo("dt=a/b/hh=\\N");
        assertThat(PartitionNames.text(List.of(), Partition.EMPTY)).isEmpty();
    }
}
