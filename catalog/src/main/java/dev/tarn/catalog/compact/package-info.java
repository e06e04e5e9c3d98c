/**
 * The Flink job behind {@code CALL sys.compact}: a bounded job that spreads the buckets of a
 * compaction plan over its parallel tasks, rewrites each (files written, nothing committed), and
 * publishes every result from a single committer as one COMPACT snapshot. A compaction whose input
 * another writer replaced meanwhile is dropped with its files; a failed job leaves the table as it
 * was.
 */
package dev.tarn.catalog.compact;
