package dev.tarn.catalog.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.manifest.Partition;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.flink.table.api.ValidationException;
import org.junit.jupiter.api.Test;

/**
 * The {@code partitions} argument: Paimon's 'k1=v1,k2=v2;k1=v3' syntax with values by their {@link
 * PartitionNames}, and its refusals.
 */
class PartitionSpecsTest {

    private static final List<String> KEYS = List.of("dt", "hh");

    private static Predicate<Partition> select(String text) {
        return PartitionSpecs.selector(KEYS, PartitionSpecs.parse("db.t", KEYS, text));
    }

    private static Partition p(String... values) {
        return new Partition(Arrays.asList(values));
    }

    @Test
    void parsesPartitionsSeparatedBySemicolonsOfPairsSeparatedByCommas() {
        assertThat(PartitionSpecs.parse("db.t", KEYS, "dt=2026-11-30,hh=10; dt = 2026-12-01"))
                .containsExactly(
                        Map.of("dt", "2026-11-30", "hh", "10"), Map.of("dt", "2026-12-01"));
    }

    @Test
    void selectsPartitionsThatMatchOneSpecOnEveryKeyItGives() {
        Predicate<Partition> selected = select("dt=a,hh=1;dt=b");
        assertThat(selected).accepts(p("a", "1"), p("b", "1"), p("b", "2"));
        assertThat(selected).rejects(p("a", "2"), p("c", "1"));
        assertThat(select("dt=")).accepts(p("", "1")).rejects(p("a", "1"), p(null, "1"));
    }

    @Test
    void namesNullByBackslashNAndEveryStringAsItself() {
        assertThat(select("hh=\\N")).accepts(p("a", null)).rejects(p("a", "\\N"), p("a", "N"));
        assertThat(select("hh=\\\\N")).accepts(p("a", "\\N")).rejects(p("a", null));
        assertThat(select("hh=__DEFAULT_PARTITION__"))
                .accepts(p("a", "__DEFAULT_PARTITION__"))
                .rejects(p("a", null));
        assertThat(select("hh=x=y,dt=a/b")).accepts(p("a/b", "x=y"));
    }

    @Test
    void refusesMalformedSpecsNamingTheArgument() {
        assertRefused("dt=a;", "a partition between ';' is empty");
        assertRefused("dt", "'dt' is not key=value");
        assertRefused("dt=a,,hh=1", "'' is not key=value");
        assertRefused("day=a", "'day' is no partition key; the partition keys are [dt, hh]");
        assertRefused("dt=a,dt=b", "key 'dt' is given twice in one partition");
        assertRefused(
                "dt=\\x",
                "value '\\x' of dt starts with a backslash but is neither \\N (NULL) nor a"
                        + " doubled backslash; '\\\\x' names the value \\x");
        assertThatThrownBy(() -> PartitionSpecs.parse("db.u", List.of(), "dt=a"))
                .hasMessage(
                        "Cannot compact table db.u: argument 'partitions' ('dt=a') is malformed:"
                                + " the table has no partition keys. Write partitions as"
                                + " 'k1=v1,k2=v2;k1=v3'");
    }

    private static void assertRefused(String text, String reason) {
        assertThatThrownBy(() -> PartitionSpecs.parse("db.t", KEYS, text))
                .isInstanceOf(ValidationException.class)
                .hasMessage(
                        "Cannot compact table db.t: argument 'partitions' ('"
                                + text
                                + "') is malformed: "
                                + reason
                                + ". Write partitions as 'k1=v1,k2=v2;k1=v3'");
    }
}
