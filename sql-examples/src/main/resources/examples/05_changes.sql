-- Reading what commits changed instead of a whole snapshot. A streaming SELECT follows a table
-- without end (see the README); 'incremental-between' reads the changes of some snapshots and
-- ends (of a primary-key table, in streaming mode: its changes include updates and deletes).
CREATE CATALOG lake WITH ('type' = 'tarn', 'warehouse' = '${warehouse}');
CREATE DATABASE IF NOT EXISTS lake.feed;

CREATE TABLE lake.feed.events (id BIGINT, kind STRING) WITH ('bucket' = '1');
INSERT INTO lake.feed.events VALUES (1, 'open'), (2, 'click');
INSERT INTO lake.feed.events VALUES (3, 'click');
INSERT INTO lake.feed.events VALUES (4, 'close');

-- The rows of snapshots 2 and 3: what was appended after snapshot 1.
SELECT * FROM lake.feed.events /*+ OPTIONS('incremental-between' = '1,3') */ ORDER BY id;
