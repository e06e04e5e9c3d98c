/**
 * Table maintenance, the work behind the catalog's {@code CALL sys.*} procedures, which only parse
 * their arguments and call in here: full compaction of a table today (planned, compacted bucket by
 * bucket on any machine, published as one snapshot); snapshot expiration, orphan cleanup, tags,
 * rollback and integrity checks belong here too. Each runs on a {@link
 * dev.tarn.format.table.TableContext} and publishes through the commit seam, so a race with writers
 * resolves as any commit's does.
 */
package dev.tarn.format.maintenance;
