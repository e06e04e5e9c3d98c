-- An append table in a Tarn catalog: create, insert twice, read the latest snapshot and an older one.
CREATE CATALOG lake WITH ('type' = 'tarn', 'warehouse' = '${warehouse}');
CREATE DATABASE IF NOT EXISTS lake.db;

CREATE TABLE lake.db.events (
  id BIGINT,
  k INT,
  name STRING,
  price DOUBLE,
  ts TIMESTAMP(3),
  dt STRING
) PARTITIONED BY (dt) WITH ('bucket' = '4', 'bucket-key' = 'id');

-- Snapshot 1.
INSERT INTO lake.db.events VALUES
  (1, 10, 'apple',  1.50, TIMESTAMP '2026-11-30 09:00:00', '2026-11-30'),
  (2, 20, 'banana', 0.25, TIMESTAMP '2026-11-30 09:05:00', '2026-11-30'),
  (3, 30, 'cherry', 4.00, TIMESTAMP '2026-12-01 10:00:00', '2026-12-01');

-- Snapshot 2.
INSERT INTO lake.db.events VALUES
  (4, 40, 'date',   2.00, TIMESTAMP '2026-12-01 11:00:00', '2026-12-01'),
  (5, 50, CAST(NULL AS STRING), CAST(NULL AS DOUBLE), CAST(NULL AS TIMESTAMP(3)), '2026-12-02');

SELECT dt, COUNT(*) AS n, SUM(price) AS total FROM lake.db.events GROUP BY dt ORDER BY dt;

-- Time travel: the table as snapshot 1 left it.
SELECT id, name FROM lake.db.events /*+ OPTIONS('scan.snapshot-id' = '1') */ ORDER BY id;

-- Projection, filter and limit are pushed into the scan.
SELECT id, price FROM lake.db.events WHERE id BETWEEN 2 AND 4 ORDER BY id;
SELECT COUNT(*) FROM (SELECT * FROM lake.db.events LIMIT 2);
