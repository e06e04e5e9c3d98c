-- INSERT OVERWRITE of a static partition, of the partitions a query writes, a table outside any catalog, TRUNCATE TABLE.
CREATE CATALOG lake WITH ('type' = 'tarn', 'warehouse' = '${warehouse}');
CREATE DATABASE IF NOT EXISTS lake.shop;

CREATE TABLE lake.shop.orders (order_id BIGINT, amount DECIMAL(10, 2), region STRING, dt DATE)
  PARTITIONED BY (dt, region);

INSERT INTO lake.shop.orders VALUES
  (1, 10.00, 'eu', DATE '2026-11-29'),
  (2, 20.00, 'us', DATE '2026-11-29'),
  (3, 30.00, 'eu', DATE '2026-11-30'),
  (4, 40.00, 'us', DATE '2026-11-30');

-- Replace one partition; the others stay.
INSERT OVERWRITE lake.shop.orders PARTITION (dt = '2026-11-30', region = 'eu') VALUES (33, 33.33);

-- Replace only the partitions this query writes (dynamic-partition-overwrite, the default).
INSERT OVERWRITE lake.shop.orders VALUES (22, 22.22, 'us', DATE '2026-11-29');

SELECT order_id, amount, region, dt FROM lake.shop.orders ORDER BY order_id;

-- Partition pruning: only dt = 2026-11-30 is planned.
SELECT SUM(amount) FROM lake.shop.orders WHERE dt = DATE '2026-11-30';

-- The same table through the connector, without a catalog.
CREATE TEMPORARY TABLE orders_by_path (order_id BIGINT, amount DECIMAL(10, 2), region STRING, dt DATE)
  PARTITIONED BY (dt, region)
  WITH ('connector' = 'tarn', 'path' = '${warehouse}/shop.db/orders');
SELECT COUNT(*) FROM orders_by_path;

-- Empty the table: one OVERWRITE snapshot that deletes every file; time travel still reads the rows.
TRUNCATE TABLE lake.shop.orders;
SELECT COUNT(*) FROM lake.shop.orders;
SELECT snapshot_id, commit_kind, total_record_count FROM lake.shop.`orders$snapshots`;
SELECT order_id FROM lake.shop.orders /*+ OPTIONS('scan.snapshot-id' = '3') */ ORDER BY order_id;
