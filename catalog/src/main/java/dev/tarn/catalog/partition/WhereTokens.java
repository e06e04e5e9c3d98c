package dev.tarn.catalog.partition;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.flink.table.api.ValidationException;

/**
 * Splits the text of a {@link PartitionWhere} into tokens: quoted strings ({@code 'a''b'}, quotes
 * kept), back-quoted identifiers, words and numbers, and operators ({@code <= >= <> != = < > ( )
 * ,}). Whitespace separates tokens and is dropped.
 */
final class WhereTokens {

    private WhereTokens() {}

    static List<String> of(String text, Function<String, ValidationException> refuse) {
        List<String> tokens = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '\'' || c == '`') {
                int end = i + 1;
                while (true) {
                    if (end >= text.length()) {
                        throw refuse.apply("unterminated " + c + " at position " + (i + 1));
                    }
                    if (text.charAt(end) == c) {
                        if (end + 1 < text.length() && text.charAt(end + 1) == c) {
                            end += 2;
                            continue;
                        }
                        break;
                    }
                    end++;
                }
                tokens.add(text.substring(i, end + 1));
                i = end + 1;
            } else if (Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == '-') {
                int end = i;
                while (end < text.length()
                        && (Character.isLetterOrDigit(text.charAt(end))
                                || "_.-".indexOf(text.charAt(end)) >= 0)) {
                    end++;
                }
                tokens.add(text.substring(i, end));
                i = end;
            } else if (i + 1 < text.length()
                    && List.of("<=", ">=", "<>", "!=").contains(text.substring(i, i + 2))) {
                tokens.add(text.substring(i, i + 2));
                i += 2;
            } else if ("=<>(),".indexOf(c) >= 0) {
                tokens.add(String.valueOf(c));
                i++;
            } else {
                throw refuse.apply("unexpected '" + c + "' at position " + (i + 1));
            }
        }
        return tokens;
    }
}
