package dev.tarn.format.parquet;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Loads and initializes, on a daemon thread of its own, the Parquet classes that the first read or
 * write of a file in a JVM needs: its footer's metadata class builds a JSON mapper of Parquet's
 * shaded Jackson in its static initializer (373 classes), and with the footer converter it takes
 * 0.1 to 0.2 s in a fresh JVM, which a task's first read otherwise waits for on its fetcher thread.
 * Started when a task is set up, it runs while the task waits for its first split. Once per JVM
 * (per class loader); a failure is left for the read that needs the class to report.
 */
public final class ParquetWarmUp {

    private static final AtomicBoolean STARTED = new AtomicBoolean();

    private static final String[] CLASSES = {
        "org.apache.parquet.format.converter.ParquetMetadataConverter",
        "org.apache.parquet.hadoop.metadata.ParquetMetadata",
        "org.apache.parquet.hadoop.ParquetFileReader",
    };

    private ParquetWarmUp() {}

    /** Starts the loading unless it was started before; returns at once. */
    public static void start() {
        if (!STARTED.compareAndSet(false, true)) {
            return;
        }
        ClassLoader loader = ParquetWarmUp.class.getClassLoader();
        Thread thread =
                new Thread(
                        () -> {
                            for (String name : CLASSES) {
                                try {
                                    Class.forName(name, true, loader);
                                } catch (ClassNotFoundException | LinkageError e) {
                                    return; // The read that needs it reports it.
                                }
                            }
                        },
                        "tarn-parquet-warm-up");
        thread.setDaemon(true);
        thread.start();
    }
}
