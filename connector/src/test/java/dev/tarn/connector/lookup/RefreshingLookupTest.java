package dev.tarn.connector.lookup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The subtasks of one join in one JVM that hold the same rows share one copy of them: the first to
 * open loads it, the others answer from it, and it closes (its local files deleted) when the last
 * leaves; another join of the same table has a copy of its own.
 */
class RefreshingLookupTest {

    @TempDir File dir;

    @TempDir Path tmp;

    private String savedTmp;

    private Table table() throws Exception {
        Table table = LookupTestTables.customers(dir, 100);
        // The copies' local directories go to a directory of this test, to be counted.
        savedTmp = System.getProperty("java.io.tmpdir");
        System.setProperty("java.io.tmpdir", tmp.toString());
        return table;
    }

    @AfterEach
    void restoreTmp() {
        if (savedTmp != null) {
            System.setProperty("java.io.tmpdir", savedTmp);
        }
    }

    private long localDirs() throws Exception {
        try (Stream<Path> files = Files.list(tmp)) {
            return files.filter(p -> p.getFileName().toString().startsWith("tarn-lookup-")).count();
        }
    }

    private static String name(RefreshingLookup lookup, long id) throws Exception {
        List<RowData> rows = lookup.get(GenericRowData.of(id));
        assertThat(rows).as("rows of key %d", id).hasSize(1);
        return rows.get(0).getString(1).toString();
    }

    @Test
    void subtasksOfOneJoinShareOneCopyUntilTheLastLeaves() throws Exception {
        Table table = table();
        RefreshingLookup planned =
                new RefreshingLookup(table, List.of("id"), new int[] {0, 1}, null, false);
        // Each subtask deserializes the planned function, as Flink ships it.
        byte[] shipped = InstantiationUtil.serializeObject(planned);
        ClassLoader loader = getClass().getClassLoader();
        RefreshingLookup first = InstantiationUtil.deserializeObject(shipped, loader);
        RefreshingLookup second = InstantiationUtil.deserializeObject(shipped, loader);
        int before = RefreshingLookup.openCopies();

        first.open(new FunctionContext(null));
        second.open(new FunctionContext(null));
        assertThat(RefreshingLookup.openCopies()).as("copies open").isEqualTo(before + 1);
        assertThat(localDirs()).as("local directories").isEqualTo(1);
        assertThat(name(first, 7)).isEqualTo("name-7");
        assertThat(name(second, 42)).isEqualTo("name-42");

        // Another join of the same table (planned again) holds a copy of its own.
        RefreshingLookup other =
                new RefreshingLookup(table, List.of("id"), new int[] {0, 1}, null, false);
        other.open(new FunctionContext(null));
        assertThat(RefreshingLookup.openCopies()).as("copies open").isEqualTo(before + 2);
        other.close();

        first.close();
        assertThat(RefreshingLookup.openCopies())
                .as("copies open after one of two holders left")
                .isEqualTo(before + 1);
        assertThat(name(second, 99)).isEqualTo("name-99");
        second.close();
        assertThat(RefreshingLookup.openCopies())
                .as("copies open after both left")
                .isEqualTo(before);
        assertThat(localDirs()).as("local directories after both left").isZero();
    }
}
