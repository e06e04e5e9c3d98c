-- Iceberg metadata: the table's directory is also an Iceberg table, so Spark, Trino, DuckDB and
-- Iceberg's own Java API read it without a copy (README, "Reading Tarn tables from other engines").
CREATE CATALOG lake WITH ('type' = 'tarn', 'warehouse' = '${warehouse}');
CREATE DATABASE IF NOT EXISTS lake.shared;

CREATE TABLE lake.shared.events (id BIGINT, kind STRING, dt STRING) PARTITIONED BY (dt)
  WITH ('metadata.iceberg.storage' = 'table-location');

-- Each commit writes Iceberg's metadata/v<N>.metadata.json for Tarn snapshot N, with Iceberg's
-- manifests over the same Parquet files, and points metadata/version-hint.text at it.
INSERT INTO lake.shared.events VALUES (1, 'click', '2026-01-01'), (2, 'view', '2026-01-01');
INSERT INTO lake.shared.events VALUES (3, 'click', '2026-01-02');

-- A renamed column keeps its field id, so an Iceberg reader keeps its values too.
ALTER TABLE lake.shared.events RENAME kind TO action;
INSERT INTO lake.shared.events VALUES (4, 'buy', '2026-01-02');

SELECT * FROM lake.shared.events ORDER BY id;
-- Iceberg snapshot N is Tarn snapshot N: VERSION AS OF 2 in Iceberg reads as this does.
SELECT COUNT(*) FROM lake.shared.events /*+ OPTIONS('scan.snapshot-id' = '2') */;
SELECT snapshot_id, commit_kind FROM lake.shared.`events$snapshots`;

