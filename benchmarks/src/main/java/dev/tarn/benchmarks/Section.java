package dev.tarn.benchmarks;

import javax.annotation.Nullable;

/**
 * A table of the benchmark's report: its title, the parallelism its pipelines run at, the rows its
 * rates are per, and the name of its job-overhead line, whose time its scan rates are also given
 * net of (null for none).
 */
record Section(String title, int parallelism, long rows, @Nullable String overhead) {}
