package dev.tarn.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.table.functions.ScalarFunction;

/**
 * Scalar functions that the recovery ITCases (streaming, and batch reads that fail over) put into
 * their queries to hold, slow down or fail a job at a row of their choosing. Their state is static:
 * the MiniCluster runs the tasks in the test's JVM, and each task has its own copy of the function.
 */
final class StreamingFunctions {

    private StreamingFunctions() {}

    /**
     * Passes ids through, slowly (a millisecond every 50 rows), and holds the task thread at the id
     * it was closed at until opened: a reader held inside a split, whose task still takes
     * checkpoint triggers into its mailbox. It records the ids it passed since closed.
     */
    public static final class Gate extends ScalarFunction {

        private static final AtomicLong AT = new AtomicLong(-1);
        private static volatile CountDownLatch reached = new CountDownLatch(0);
        private static volatile CountDownLatch opened = new CountDownLatch(0);
        private static final List<Integer> PASSED = Collections.synchronizedList(new ArrayList<>());

        static void close(int at) {
            reached = new CountDownLatch(1);
            opened = new CountDownLatch(1);
            PASSED.clear();
            AT.set(at);
        }

        static void awaitReached() throws InterruptedException {
            assertThat(reached.await(30, TimeUnit.SECONDS))
                    .as("the reader reached the gate")
                    .isTrue();
        }

        static List<Integer> passed() {
            synchronized (PASSED) {
                return new ArrayList<>(PASSED);
            }
        }

        static void open() {
            AT.set(-1);
            opened.countDown();
        }

        public Integer eval(Integer id) throws InterruptedException {
            if (id != null && id % 50 == 0) {
                Thread.sleep(1);
            }
            if (id != null && id == AT.get()) {
                reached.countDown();
                opened.await();
            }
            PASSED.add(id);
            return id;
        }
    }

    /** Passes ids through, slowly: a millisecond every 5 rows, 200 rows a checkpoint or so. */
    public static final class Slow extends ScalarFunction {

        public Integer eval(Integer id) throws InterruptedException {
            if (id != null && id % 5 == 0) {
                Thread.sleep(1);
            }
            return id;
        }
    }

    /** Passes values through, and fails once, at the value it was set to. */
    public static final class FailAt extends ScalarFunction {

        private static final AtomicLong AT = new AtomicLong();
        private static final AtomicBoolean FAILED = new AtomicBoolean();

        static void reset(long at) {
            AT.set(at);
            FAILED.set(false);
        }

        static boolean failed() {
            return FAILED.get();
        }

        public Long eval(Long value) {
            if (value != null && value == AT.get() && FAILED.compareAndSet(false, true)) {
                throw new IllegalStateException("Injected failure at value " + value);
            }
            return value;
        }
    }
}
