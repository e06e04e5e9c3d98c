/**
 * Partitions as SQL names them: the spelling of a partition value as text ({@code PartitionNames},
 * NULL as {@code '\N'}), the {@code partitions} argument of procedures ({@code PartitionSpecs}), a
 * {@code where} filter over partition columns ({@code PartitionWhere}, with its tokenizer), and the
 * partitions of a table's latest snapshot as Flink partition specs ({@code TablePartitions}). Each
 * well-formed name names exactly one partition value; every malformed one is refused by name.
 */
package dev.tarn.catalog.partition;
