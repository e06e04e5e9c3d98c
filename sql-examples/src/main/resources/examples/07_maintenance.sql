-- Maintenance: a tag, snapshot expiration, a rollback (README, "Maintenance").
CREATE CATALOG lake WITH ('type' = 'tarn', 'warehouse' = '${warehouse}');
CREATE DATABASE IF NOT EXISTS lake.shop;

CREATE TABLE lake.shop.visits (id INT, page STRING) WITH ('bucket' = '1', 'bucket-key' = 'id');
INSERT INTO lake.shop.visits VALUES (1, 'home'), (2, 'cart');
INSERT INTO lake.shop.visits VALUES (3, 'home');
INSERT INTO lake.shop.visits VALUES (4, 'checkout');

-- Name snapshot 2, then keep only the latest snapshot: 1 and 2 expire, the tag keeps 2's files.
CALL lake.sys.create_tag(`table` => 'shop.visits', tag => 'before-sale', snapshot_id => 2);
CALL lake.sys.expire_snapshots(`table` => 'shop.visits', retain_max => 1, retain_min => 1);
SELECT snapshot_id, commit_kind FROM lake.shop.`visits$snapshots`;
SELECT tag_name, snapshot_id, record_count FROM lake.shop.`visits$tags`;

-- The tag still reads as its snapshot did.
SELECT * FROM lake.shop.visits /*+ OPTIONS('scan.tag-name' = 'before-sale') */ ORDER BY id;

-- Every file the table needs is there (the CALL returns a report).
CALL lake.sys.check_table('shop.visits');
-- The table at a glance (README, "Health"): snapshots kept, small files, damage.
SELECT snapshot_count, latest_snapshot_id, file_count, small_file_count, damaged_file_count,
    newest_whole_snapshot_id FROM lake.shop.`visits$health`;

-- Back to the tag: the table reads as snapshot 2, and takes writes again at once.
CALL lake.sys.rollback_to(`table` => 'shop.visits', tag => 'before-sale');
INSERT INTO lake.shop.visits VALUES (5, 'home');
SELECT * FROM lake.shop.visits ORDER BY id;
SELECT snapshot_id, commit_kind FROM lake.shop.`visits$snapshots`;
