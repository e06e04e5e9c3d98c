/**
 * Table maintenance, the work behind the catalog's {@code CALL sys.*} procedures, which only parse
 * their arguments and call in here: full compaction ({@link
 * dev.tarn.format.maintenance.FullCompaction}: planned, compacted bucket by bucket on any machine,
 * published as one snapshot); snapshot expiration, tags and rollback ({@link
 * dev.tarn.format.maintenance.SnapshotLifecycle}, also run in the background after each commit of a
 * writing job); orphan cleanup ({@code RemoveOrphanFiles}) and the integrity check ({@code
 * TableCheck}). Orphan cleanup and the check start from the same roots ({@code Roots#gather}: every
 * snapshot and every tag's snapshot) and walk what they name with {@code ReferencedFiles}, reading
 * each manifest list, manifest and index manifest once; the check reads each deletion vector once
 * too ({@code VectorCheck}). Each runs on a {@link dev.tarn.format.table.TableContext} and
 * publishes through the commit seam, so a race with writers resolves as any commit's does.
 */
package dev.tarn.format.maintenance;
