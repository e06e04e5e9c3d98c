-- Catalog DDL: partitions, CREATE TABLE AS SELECT and LIKE, a rename (README, "Catalog DDL").
CREATE CATALOG lake WITH ('type' = 'tarn', 'warehouse' = '${warehouse}');
CREATE DATABASE IF NOT EXISTS lake.catalog_demo;
CREATE DATABASE IF NOT EXISTS lake.catalog_archive;

CREATE TABLE lake.catalog_demo.orders (id INT COMMENT 'order number', amount DECIMAL(10, 2), dt STRING)
    COMMENT 'one row per order' PARTITIONED BY (dt) WITH ('bucket' = '1', 'bucket-key' = 'id');
INSERT INTO lake.catalog_demo.orders VALUES (1, 9.50, '2026-01-01'), (2, 20.00, '2026-01-01');
INSERT INTO lake.catalog_demo.orders VALUES (3, 5.25, '2026-01-02');
INSERT INTO lake.catalog_demo.orders VALUES (4, 7.00, '2026-01-03');
SHOW PARTITIONS lake.catalog_demo.orders;

-- Dropping a partition deletes its files in one OVERWRITE snapshot; time travel still sees them.
ALTER TABLE lake.catalog_demo.orders DROP PARTITION (dt = '2026-01-01');
SELECT id, dt FROM lake.catalog_demo.orders ORDER BY id;
SELECT snapshot_id, commit_kind FROM lake.catalog_demo.`orders$snapshots`;
SELECT COUNT(*) FROM lake.catalog_demo.orders /*+ OPTIONS('scan.snapshot-id' = '3') */;

-- A table created from a query, and an empty one shaped like another.
CREATE TABLE lake.catalog_demo.daily WITH ('bucket' = '1') AS
    SELECT dt, COUNT(*) AS orders, SUM(amount) AS total FROM lake.catalog_demo.orders GROUP BY dt;
SELECT * FROM lake.catalog_demo.daily ORDER BY dt;
CREATE TABLE lake.catalog_demo.orders_2025 LIKE lake.catalog_demo.orders;

-- ALTER TABLE ... RENAME TO stays in its database; sys.rename_table moves a table to another.
CALL lake.sys.rename_table('catalog_demo.orders_2025', 'catalog_archive.orders_2025');
SHOW TABLES FROM lake.catalog_archive;
