-- System tables: a table's history, files and changes, read as tables (README, "System tables").
-- Each is <table>$<name>, quoted in SQL, and read-only.
CREATE CATALOG lake WITH ('type' = 'tarn', 'warehouse' = '${warehouse}');
CREATE DATABASE IF NOT EXISTS lake.shop;

CREATE TABLE lake.shop.stock (item STRING NOT NULL, qty INT, PRIMARY KEY (item) NOT ENFORCED)
  WITH ('bucket' = '1');
INSERT INTO lake.shop.stock VALUES ('apple', 3), ('pear', 5);
INSERT INTO lake.shop.stock VALUES ('apple', 2), ('fig', 1);
CALL lake.sys.compact('shop.stock');

-- Every snapshot: two appends, then the compaction, which changed no row.
SELECT snapshot_id, commit_kind, total_record_count, delta_record_count
FROM lake.shop.`stock$snapshots` ORDER BY snapshot_id;

-- The compaction left one file at the last level, holding each key once.
SELECT bucket, level, record_count, min_key, max_key FROM lake.shop.`stock$files`;

-- Before it (snapshot 2), two level-0 files: four versions of three keys.
SELECT level, record_count, min_key, max_key
FROM lake.shop.`stock$files` /*+ OPTIONS('scan.snapshot-id' = '2') */ ORDER BY min_key, max_key;

-- The options the table stores.
SELECT * FROM lake.shop.`stock$options`;

-- The rows with their kind: in batch mode, the latest snapshot as inserts.
SELECT * FROM lake.shop.`stock$audit_log` ORDER BY item;
