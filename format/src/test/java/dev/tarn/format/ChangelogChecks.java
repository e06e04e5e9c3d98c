package dev.tarn.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Applies changelogs written as text ({@code "+I" + row}, ...) to a map of the current rows. */
public final class ChangelogChecks {

    private ChangelogChecks() {}

    /**
     * Applies {@code changes} to {@code view}, checking each against it: {@code +I} of a new key,
     * {@code -U} and {@code -D} of exactly the key's current row, {@code +U} right after the {@code
     * -U} of its key and unlike it.
     *
     * @param keyOf the key of a row (the text after the kind)
     * @param where what the changes are of, for the failure messages
     */
    public static <K> void apply(
            List<String> changes, Map<K, String> view, Function<String, K> keyOf, String where) {
        String retracted = null;
        for (String change : changes) {
            String kind = change.substring(0, 2);
            String row = change.substring(2);
            K key = keyOf.apply(row);
            switch (kind) {
                case "+I" -> {
                    assertThat(view)
                            .as("%s: %s of a new key", where, change)
                            .doesNotContainKey(key);
                    view.put(key, row);
                }
                case "-U", "-D" -> {
                    assertThat(view.get(key))
                            .as("%s: %s retracts the key's row", where, change)
                            .isEqualTo(row);
                    view.remove(key);
                    retracted = kind.equals("-U") ? row : null;
                }
                case "+U" -> {
                    assertThat(retracted)
                            .as("%s: %s follows the -U of its key", where, change)
                            .isNotNull()
                            .isNotEqualTo(row);
                    view.put(key, row);
                    retracted = null;
                }
                default -> throw new AssertionError("Unknown kind in " + change);
            }
        }
    }
}
