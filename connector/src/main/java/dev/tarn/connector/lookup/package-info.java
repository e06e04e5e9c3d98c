/**
 * Tarn tables as the right side of Flink's lookup joins: {@code TarnLookupJoin} builds the lookup
 * functions (synchronous {@code TarnLookupFunction}, asynchronous {@code TarnAsyncLookupFunction},
 * both over a {@code RefreshingLookup}, whose copy of the rows the join's subtasks in one JVM
 * share) and the partitioner that routes each fact to the subtask holding its bucket; {@code
 * LookupSettings} reads the join's options. The rows, their refresh from each new snapshot and the
 * bucket of a key all come from the format's {@code TableLookup} and {@code LookupShuffle}, behind
 * the {@code Table} façade; this package only adapts them to Flink.
 */
package dev.tarn.connector.lookup;
