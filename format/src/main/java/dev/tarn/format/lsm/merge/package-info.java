/**
 * The merge engines of a primary-key table: how all versions of one key fold into the key's current
 * state. A {@link dev.tarn.format.lsm.merge.MergeFunction} is given a key's versions in sequence
 * order (oldest first, ties going to the newer run) and returns one result or none; {@link
 * dev.tarn.format.lsm.merge.MergeFunctions} builds it from the table's {@code merge-engine} and
 * options, validating them when the table is created or opened. The engines:
 *
 * <ul>
 *   <li>{@code deduplicate}: the newest version wins; a retraction wins as a tombstone.
 *   <li>{@code partial-update}: each field keeps its newest non-null value; retractions refused.
 *   <li>{@code aggregation}: each field folds with its aggregate function ({@code
 *       fields.<f>.aggregate-function}: sum, min, max, first/last (non-null) value, listagg,
 *       bool_and, bool_or); retractions subtract or are refused per function.
 *   <li>{@code first-row}: the oldest row wins; retractions ignored.
 * </ul>
 *
 * {@code sequence.field} orders versions by columns before sequence; {@code ignore-delete} drops
 * retractions before the engine. Both wrap the engine. What an engine supports beyond merging
 * (DELETE, UPDATE, projection on read) is said by {@link dev.tarn.format.schema.MergeEngine}.
 *
 * <p>Always: a merge function may keep references to the versions it was given until its next
 * {@code reset()}, and never changes them; a result of a retraction kind is a tombstone, which the
 * caller keeps or drops. Nothing here knows about runs, files or buffers.
 */
package dev.tarn.format.lsm.merge;
