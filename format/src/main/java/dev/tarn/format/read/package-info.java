/**
 * The read seam: {@link dev.tarn.format.read.TableScan} fixes one snapshot and plans its live files
 * into splits (one planner per table kind: packed files of an append table, one merged bucket of a
 * primary-key table), pruning partitions, buckets, files and row groups by the filter; {@link
 * dev.tarn.format.read.TableRead} turns a split into rows, merging a primary-key bucket's runs on
 * read through its merge engine. A plan never changes once made: later commits add snapshots.
 */
package dev.tarn.format.read;
