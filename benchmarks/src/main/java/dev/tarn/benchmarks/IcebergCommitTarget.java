package dev.tarn.benchmarks;

/**
 * A table of the Iceberg commit-cost benchmark, of one system, with or without Iceberg metadata:
 * each prepare step does the writers' work (a file, a compaction's rewrite) and returns the commit
 * that publishes it, which alone is measured. Used on one thread, the committing one.
 */
public interface IcebergCommitTarget extends AutoCloseable {

    /** One small file of one row, as a checkpoint of a slow stream writes it. */
    Publish prepareAppend() throws Exception;

    /** A full compaction of the table's files, rewritten and ready to publish. */
    Publish prepareCompaction() throws Exception;

    /** The commit of what a prepare step wrote. */
    @FunctionalInterface
    interface Publish {
        void run() throws Exception;
    }

    /** A system under test: opens a new table in {@code directory}. */
    interface Factory {

        /** {@code tarn} or {@code paimon}. */
        String name();

        /**
         * A new table with {@code metadata.iceberg.storage} = {@code table-location} when {@code
         * iceberg}, without the option (its default, {@code disabled}) otherwise.
         *
         * @throws OptionNotAvailableException if the system refuses the option
         */
        IcebergCommitTarget open(java.nio.file.Path directory, boolean iceberg) throws Exception;
    }

    /** The system does not know {@code metadata.iceberg.storage}. */
    final class OptionNotAvailableException extends Exception {
        public OptionNotAvailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
