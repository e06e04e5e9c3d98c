package dev.tarn.catalog.procedure;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.ZoneOffset;
import org.apache.flink.table.api.ValidationException;
import org.junit.jupiter.api.Test;

/** Each refusal names the procedure, the argument and the value as SQL writes it. */
class ProcedureArgumentsTest {

    private final ProcedureArguments args = new ProcedureArguments("create_tag");

    @Test
    void aMissingOrEmptyValueIsShownAsASqlLiteral() {
        assertThatThrownBy(() -> args.required("tag", ""))
                .isInstanceOf(ValidationException.class)
                .hasMessage("Invalid argument 'tag' of sys.create_tag: ''; it is required");
        assertThatThrownBy(() -> args.required("tag", "  "))
                .hasMessage("Invalid argument 'tag' of sys.create_tag: '  '; it is required");
        assertThatThrownBy(() -> args.required("tag", null))
                .hasMessage("Invalid argument 'tag' of sys.create_tag: NULL; it is required");
    }

    @Test
    void textIsQuotedAsInSqlAndNumbersAreNot() {
        assertThatThrownBy(() -> args.table("nodot"))
                .hasMessage(
                        "Invalid argument 'table' of sys.create_tag: 'nodot'; name a table as"
                                + " 'database.table'");
        assertThatThrownBy(() -> args.duration("time_retained", "it's long"))
                .hasMessage(
                        "Invalid argument 'time_retained' of sys.create_tag: 'it''s long';"
                                + " expected a duration such as '1 d' or '12 h'");
        assertThatThrownBy(() -> args.timestamp("older_than", "soon", ZoneOffset.UTC))
                .hasMessage(
                        "Invalid argument 'older_than' of sys.create_tag: 'soon'; expected"
                                + " 'yyyy-MM-dd HH:mm:ss' or 'yyyy-MM-dd'");
        assertThatThrownBy(() -> args.atLeast("retain_max", 0, 1))
                .hasMessage(
                        "Invalid argument 'retain_max' of sys.create_tag: 0; it must be at least"
                                + " 1");
    }
}
