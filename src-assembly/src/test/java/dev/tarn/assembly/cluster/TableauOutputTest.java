package dev.tarn.assembly.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The SQL client's tables read back as rows, as its output prints them. */
class TableauOutputTest {

    @Test
    void batchResultsInOrderWithNullsAndEmptySets() {
        String output =
                String.join(
                        "\n",
                        "Flink SQL> [INFO] Execute statement succeeded.",
                        "> SELECT dt, COUNT(*) AS n, SUM(price)+------------+---+--------+",
                        "|         dt | n |  total |",
                        "+------------+---+--------+",
                        "| 2026-11-30 | 2 |   1.75 |",
                        "| 2026-12-02 | 1 | <NULL> |",
                        "+------------+---+--------+",
                        "2 rows in set (3.56 seconds)",
                        "Flink SQL> Empty set",
                        "Flink SQL> +--------+",
                        "| EXPR$0 |",
                        "+--------+",
                        "|      2 |",
                        "+--------+",
                        "1 row in set (1.18 seconds)");
        assertThat(TableauOutput.batchResults(output))
                .containsExactly(
                        List.of("+I[2026-11-30, 2, 1.75]", "+I[2026-12-02, 1, null]"),
                        List.of(),
                        List.of("+I[2]"));
    }

    @Test
    void changelogRowsSkipHeaderAndUnfinishedLine() {
        String output =
                String.join(
                        "\n",
                        "+----+-----+-------+",
                        "| op |   k |     v |",
                        "+----+-----+-------+",
                        "| +I |   7 |     7 |",
                        "| -U |   7 |     7 |",
                        "| +U |   7 |   207 |",
                        "| +I |   8 |  1");
        assertThat(TableauOutput.changelogRows(output))
                .containsExactly("+I[7, 7]", "-U[7, 7]", "+U[7, 207]");
    }
}
