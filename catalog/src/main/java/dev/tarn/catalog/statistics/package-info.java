/**
 * Table and column statistics for Flink's planner, added up from what the latest snapshot's
 * manifests record about its live files; no data file is opened. A total never claims more than
 * every file knows: once one file lacks a null count or a bound, the total lacks it too.
 */
package dev.tarn.catalog.statistics;
