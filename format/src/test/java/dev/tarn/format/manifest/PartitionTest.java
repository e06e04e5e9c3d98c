package dev.tarn.format.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Partition directories: every value maps to one safe path segment, and no two values to the same.
 */
class PartitionTest {

    private static final List<String> TRICKY =
            Arrays.asList(
                    "a/b",
                    "a%2Fb",
                    "a%2fb",
                    "a=b",
                    "a%3Db",
                    "%",
                    "%25",
                    "100%",
                    " ",
                    "a b",
                    "a+b",
                    "a\tb",
                    "line\nbreak",
                    "日付",
                    "é",
                    "e\u0301",
                    "😀",
                    ".",
                    "..",
                    ".hidden",
                    "a.b",
                    "_",
                    "_x",
                    "__x",
                    "x_",
                    "__DEFAULT_PARTITION__",
                    "__EMPTY_PARTITION__",
                    "%5F_DEFAULT_PARTITION__",
                    "",
                    "a:b",
                    "C:\\dir",
                    "a\\b",
                    "?*<>|\"'",
                    "\u0000",
                    "-",
                    "2026-11-30",
                    "plain",
                    null);

    private static String path(String value) {
        return new Partition(Arrays.asList(value)).path(List.of("k"));
    }

    @Test
    void escapingIsInjective() {
        Map<String, String> seen = new HashMap<>();
        for (String value : TRICKY) {
            String previous = seen.put(path(value), value);
            assertThat(previous)
                    .as("%s and %s map to one directory %s", previous, value, path(value))
                    .isNull();
        }
        Random random = new Random(42);
        for (int i = 0; i < 20_000; i++) {
            String value = randomString(random);
            String previous = seen.put(path(value), value);
            assertThat(previous == null || previous.equals(value))
                    .as("%s and %s map to one directory", previous, value)
                    .isTrue();
        }
    }

    private static String randomString(Random random) {
        String alphabet = "aZ09_.-%/= é日\u0000";
        StringBuilder sb = new StringBuilder();
        for (int n = random.nextInt(5); n > 0; n--) {
            sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return sb.toString();
    }

    @Test
    void everyValueIsOneSafePathSegment() {
        for (String value : TRICKY) {
            String segment = path(value).substring("k=".length());
            assertThat(segment)
                    .as("segment of %s", value)
                    .isNotEmpty()
                    .matches("[A-Za-z0-9%_.\\-]+")
                    .doesNotStartWith(".")
                    .isNotEqualTo(".")
                    .isNotEqualTo("..");
            assertThat(segment.indexOf('=')).as("segment of %s has no '='", value).isNegative();
        }
    }

    @Test
    void markersAndPlainValues() {
        assertThat(path(null)).isEqualTo("k=__DEFAULT_PARTITION__");
        assertThat(path("")).isEqualTo("k=__EMPTY_PARTITION__");
        assertThat(path("__DEFAULT_PARTITION__")).isEqualTo("k=%5F_DEFAULT_PARTITION__");
        assertThat(path("__EMPTY_PARTITION__")).isEqualTo("k=%5F_EMPTY_PARTITION__");
        assertThat(path("2026-11-30")).isEqualTo("k=2026-11-30");
        assertThat(path("a/b")).isEqualTo("k=a%2Fb");
        assertThat(path("a%2Fb")).isEqualTo("k=a%252Fb");
        assertThat(path(".hidden")).isEqualTo("k=%2Ehidden");
        assertThat(path("a.b_c")).isEqualTo("k=a.b_c");
        assertThat(path("é")).isEqualTo("k=%C3%A9");
        assertThat(path("a b")).isEqualTo("k=a%20b");
    }

    @ParameterizedTest
    @ValueSource(strings = {"plain", "a/b", ""})
    void multiLevelPathsJoinEscapedSegments(String second) {
        Partition p = new Partition(Arrays.asList("2026-11-30", second));
        assertThat(p.path(List.of("dt", "region")))
                .isEqualTo("dt=2026-11-30/region=" + path(second).substring(2));
        assertThat(Partition.EMPTY.path(List.of())).isEmpty();
    }

    @Test
    void keysAreEscapedToo() {
        assertThat(Partition.of("v").path(List.of("a/b"))).isEqualTo("a%2Fb=v");
    }

    @Test
    void valuesMustMatchKeys() {
        assertThatThrownBy(() -> Partition.of("x").path(List.of("dt", "region")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Partition [x] does not match partition keys [dt, region]");
    }

    @Test
    void partitionIsAValue() {
        List<String> values = new ArrayList<>(List.of("x"));
        Partition p = new Partition(values);
        values.set(0, "changed");
        assertThat(p).isEqualTo(Partition.of("x")).hasSameHashCodeAs(Partition.of("x"));
        assertThat(new Partition(Arrays.asList((String) null))).isNotEqualTo(Partition.of(""));
    }
}
