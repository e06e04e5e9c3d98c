package dev.tarn.catalog.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tarn.format.manifest.Partition;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

/** The {@code where} argument: SQL booleans over partition columns, and what it refuses. */
class PartitionWhereTest {

    private static final List<String> KEYS = List.of("dt", "hh");

    private static Predicate<Partition> where(String text) {
        return PartitionWhere.parse(
                "db.t", KEYS, List.of(VarCharType.STRING_TYPE, new IntType()), text);
    }

    private static Partition p(String dt, String hh) {
        return new Partition(Arrays.asList(dt, hh));
    }

    @Test
    void comparesStringsAsTextAndNumbersByValue() {
        assertThat(where("dt > '2026-11-01'"))
                .accepts(p("2026-11-30", "1"))
                .rejects(p("2026-11-01", "1"), p("2026-10-31", "1"));
        // As text "9" > "10"; as numbers it is not.
        assertThat(where("hh < 10")).accepts(p("a", "9")).rejects(p("a", "10"), p("a", "11"));
        assertThat(where("hh >= 10 AND hh <> 12")).accepts(p("a", "10")).rejects(p("a", "12"));
        assertThat(where("dt = DATE '2026-11-30'")).accepts(p("2026-11-30", "0"));
        assertThat(where("dt = 'it''s'")).accepts(p("it's", "0")).rejects(p("its", "0"));
    }

    @Test
    void combinesWithAndOrNotInBetweenAndNullChecks() {
        Predicate<Partition> p = where("(dt = 'a' OR dt = 'b') AND NOT hh IN (1, 2)");
        assertThat(p).accepts(p("a", "3"), p("b", "0")).rejects(p("a", "1"), p("c", "3"));
        assertThat(where("hh BETWEEN 2 AND 4"))
                .accepts(p("x", "2"), p("x", "4"))
                .rejects(p("x", "5"));
        assertThat(where("hh NOT BETWEEN 2 AND 4")).accepts(p("x", "5")).rejects(p("x", "3"));
        assertThat(where("`hh` IS NULL")).accepts(p("x", null)).rejects(p("x", "1"));
        assertThat(where("hh IS NOT NULL")).accepts(p("x", "1")).rejects(p("x", null));
        // As in SQL, a comparison with NULL is not true, and neither is its NOT IN.
        assertThat(where("hh <> 1")).rejects(p("x", null));
        assertThat(where("dt = 'a' or hh = 1 and dt = 'b'"))
                .accepts(p("a", "2"))
                .rejects(p("c", "1"));
    }

    @Test
    void refusesOtherColumnsAndWhatItCannotParseNamingTheArgument() {
        assertRefused(
                "id = 1",
                "'id' is no partition column; 'where' may only filter the partition columns [dt,"
                        + " hh]");
        assertRefused(
                "upper(dt) = 'A'",
                "'upper(...)' is a function; 'where' may only compare partition columns with"
                        + " literals");
        assertRefused("dt = 'a", "unterminated ' at position 6");
        assertRefused("dt = 'a' AND", "expected a partition column at the end");
        assertRefused("dt = 'a' hh = 1", "unexpected 'hh'");
        assertRefused("hh = 'x'", "'x' is no number, the type of its column INT");
        assertRefused("dt ~ 'a'", "unexpected '~' at position 4");
        assertRefused("(dt = 'a'", "expected ')' at the end");
    }

    private static void assertRefused(String text, String reason) {
        assertThatThrownBy(() -> where(text).test(p("a", "1")))
                .isInstanceOf(ValidationException.class)
                .hasMessage(
                        "Cannot compact table db.t: argument 'where' ("
                                + text
                                + ") is not a filter of partition columns: "
                                + reason);
    }
}
