/**
 * Table maintenance, the work behind the catalog's {@code CALL sys.*} procedures, which only parse
 * their arguments and call in here: full compaction of a primary-key table today; snapshot
 * expiration, orphan cleanup, tags, rollback and integrity checks belong here too. Each runs on a
 * {@link dev.tarn.format.table.TableContext} and publishes through the commit seam, so a race with
 * writers resolves as any commit's does.
 */
package dev.tarn.format.maintenance;
