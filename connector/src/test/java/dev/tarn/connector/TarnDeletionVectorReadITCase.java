package dev.tarn.connector;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tarn.format.Table;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.read.Split;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A batch SQL read of a primary-key table with deletion vectors goes through the source as splits
 * of single files, several per bucket, taken by both readers, filtered on a value column.
 */
class TarnDeletionVectorReadITCase {

    @RegisterExtension static final MiniClusterExtension CLUSTER = TestJobs.miniCluster(2);

    @TempDir File dir;

    @Test
    void aBucketKeptByVectorsIsReadFileByFileThroughTheSource() throws Exception {
        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        env.getConfig().set("parallelism.default", "2");
        String path = new Path(dir.toURI()).toString() + "/users";
        env.executeSql(
                "CREATE TABLE users (id BIGINT, a BIGINT, b STRING, PRIMARY KEY (id) NOT ENFORCED)"
                        + " WITH ('connector' = 'tarn', 'path' = '"
                        + path
                        + "', 'bucket' = '2', 'deletion-vectors.enabled' = 'true',"
                        + " 'source.split.target-size' = '1 b')");
        env.executeSql(
                        "INSERT INTO users SELECT CAST(v AS BIGINT), CAST(v AS BIGINT), 'x'"
                                + " FROM (VALUES (1), (2), (3), (4), (5), (6)) AS t(v)")
                .await();
        env.executeSql(
                        "INSERT INTO users SELECT CAST(v AS BIGINT), CAST(v AS BIGINT), 'y'"
                                + " FROM (VALUES (7), (8), (9), (10), (11), (12)) AS t(v)")
                .await();

        List<Split> splits =
                Table.load(FileIO.flinkFileSystems(), new Path(path), "users")
                        .newScan()
                        .plan()
                        .splits();
        assertThat(splits).hasSize(4);
        assertThat(splits).extracting(Split::kind).containsOnly(Split.Kind.SNAPSHOT_BY_FILE);

        assertThat(query(env, "SELECT id, b FROM users WHERE a >= 6 ORDER BY id"))
                .containsExactly(
                        "+I[6, x]",
                        "+I[7, y]",
                        "+I[8, y]",
                        "+I[9, y]",
                        "+I[10, y]",
                        "+I[11, y]",
                        "+I[12, y]");
        assertThat(query(env, "SELECT COUNT(*), SUM(a) FROM users")).containsExactly("+I[12, 78]");
    }

    private static List<String> query(TableEnvironment env, String sql) throws Exception {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = env.executeSql(sql).collect()) {
            it.forEachRemaining(r -> rows.add(r.toString()));
        }
        return rows;
    }
}
