/**
 * The procedures of a Tarn catalog, called as {@code CALL <catalog>.sys.<name>(...)}: compaction,
 * snapshot expiration, orphan-file removal, tags, rollback, integrity checks and rename. Names and
 * arguments follow Apache Paimon's procedures. A procedure only parses and checks its arguments
 * ({@code ProcedureArguments}, each refusal naming the procedure, argument and value) and calls the
 * table's maintenance through the format's {@code Table}; the work itself is the format's.
 * Procedure classes are public because Flink calls their {@code call} methods reflectively.
 */
package dev.tarn.catalog.procedure;
