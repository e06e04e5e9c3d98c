package dev.tarn.connector;

import java.lang.reflect.Field;
import java.nio.file.Path;
import javax.annotation.Nullable;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.streaming.api.operators.StreamingRuntimeContext;
import org.apache.flink.streaming.runtime.operators.sink.InitContextBase;
import org.apache.flink.table.functions.FunctionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a task keeps its local files (a writer's spilled buffers, a lookup join's copy of a table):
 * under its TaskManager's temporary directories, Flink's {@code io.tmp.dirs}, as Flink's own
 * spilling does, so that they land on the disks the cluster's operator chose (YARN's local
 * directories of the container, a volume mounted on Kubernetes) rather than in the JVM's temporary
 * directory. With several directories, subtasks are spread over them by index. Where the task's
 * runtime does not say (a function opened outside a Flink task), the JVM's temporary directory.
 */
public final class TaskManagerDirectories {

    private static final Logger LOG = LoggerFactory.getLogger(TaskManagerDirectories.class);

    private TaskManagerDirectories() {}

    /** The directory of a sink writer's local files. */
    public static Path of(WriterInitContext context) {
        RuntimeContext runtime =
                context instanceof InitContextBase base ? base.getRuntimeContext() : null;
        return ofRuntime(runtime, context.getTaskInfo().getIndexOfThisSubtask());
    }

    /**
     * The directory of a table function's local files. Flink's {@code FunctionContext} does not
     * show the task's runtime, so it is read from its field (as Apache Paimon's lookup does), and
     * through the wrapper an asynchronous function's runtime context is.
     */
    public static Path of(FunctionContext context) {
        RuntimeContext runtime = (RuntimeContext) field(context, FunctionContext.class, "context");
        return ofRuntime(
                runtime, runtime == null ? 0 : runtime.getTaskInfo().getIndexOfThisSubtask());
    }

    /** {@code dirs[subtask % n]}, or the JVM's temporary directory if there are none. */
    static Path choose(@Nullable String[] dirs, int subtask) {
        if (dirs == null || dirs.length == 0) {
            return Path.of(System.getProperty("java.io.tmpdir"));
        }
        return Path.of(dirs[Math.floorMod(subtask, dirs.length)]);
    }

    private static Path ofRuntime(@Nullable RuntimeContext runtime, int subtask) {
        // An asynchronous function's context wraps the operator's.
        for (int depth = 0; depth < 3 && runtime != null; depth++) {
            if (runtime instanceof StreamingRuntimeContext streaming) {
                return choose(streaming.getTaskManagerRuntimeInfo().getTmpDirectories(), subtask);
            }
            runtime = (RuntimeContext) field(runtime, runtime.getClass(), "runtimeContext");
        }
        LOG.warn(
                "The task's temporary directories (io.tmp.dirs) are not known here; local files"
                        + " go to the JVM's temporary directory {}",
                System.getProperty("java.io.tmpdir"));
        return choose(null, subtask);
    }

    /** The value of {@code owner}'s field {@code name} if it is a runtime context, else null. */
    @Nullable
    private static Object field(Object owner, Class<?> type, String name) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            try {
                Field field = c.getDeclaredField(name);
                field.setAccessible(true);
                Object value = field.get(owner);
                return value instanceof RuntimeContext ? value : null;
            } catch (NoSuchFieldException e) {
                // Look in the superclass.
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }
        return null;
    }
}
