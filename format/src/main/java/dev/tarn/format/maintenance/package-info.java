/**
 * Table maintenance, the work behind the catalog's {@code CALL sys.*} procedures, which only parse
 * their arguments and call in here: full compaction ({@code FullCompaction}), orphan cleanup
 * ({@code RemoveOrphanFiles}) and the integrity check ({@code TableCheck}); snapshot expiration,
 * tags and rollback belong here too. Orphan cleanup and the check start from the same roots ({@code
 * Roots#gather}: every snapshot, later also tags) and walk what they name with {@code
 * ReferencedFiles}, reading each manifest list and manifest once. Each runs on a {@link
 * dev.tarn.format.table.TableContext} and publishes through the commit seam, so a race with writers
 * resolves as any commit's does.
 */
package dev.tarn.format.maintenance;
