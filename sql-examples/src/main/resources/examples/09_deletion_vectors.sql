-- Deletion vectors: writers mark the row each change replaces as deleted, so a batch read reads
-- every file on its own, without merging by key (README, "Deletion vectors").
CREATE CATALOG lake WITH ('type' = 'tarn', 'warehouse' = '${warehouse}');
CREATE DATABASE IF NOT EXISTS lake.crm;

CREATE TABLE lake.crm.users (id BIGINT, name STRING, tier STRING, PRIMARY KEY (id) NOT ENFORCED)
  WITH ('bucket' = '1', 'deletion-vectors.enabled' = 'true');

INSERT INTO lake.crm.users VALUES (1, 'ada', 'gold'), (2, 'bob', 'silver'), (3, 'cy', 'bronze'),
  (4, 'dee', 'silver');
-- Upserts: the rows of keys 2 and 3 in the first file are marked deleted. That is half its rows
-- ('compaction.delete-ratio-threshold', 0.5 by default), so the writer also rewrites the file on
-- its own, with keys 1 and 4 only: a read need not decode rows only to drop them.
INSERT INTO lake.crm.users VALUES (2, 'bob', 'gold'), (3, 'cy', 'silver'), (5, 'eve', 'bronze');
-- A delete marks the key's row deleted (half the rewritten file again: rewritten with key 1 alone).
-- Its own file holds only its tombstone (for streaming reads of the change), deleted too: a file
-- whose rows are all deleted leaves the snapshot.
DELETE FROM lake.crm.users WHERE id = 4;
-- The update marks key 5's row of the second file deleted.
UPDATE lake.crm.users SET tier = 'gold' WHERE id = 5;

-- The current rows, each file read on its own without the rows its vector deletes.
SELECT * FROM lake.crm.users ORDER BY id;

-- The files, oldest first, all at level 0, with their deleted rows: the first file as rewritten,
-- the second with key 5's old row deleted, the update's; the delete's file is not among them.
SELECT level, record_count, deleted_record_count, min_key, max_key
FROM lake.crm.`users$files` ORDER BY min_sequence_number;

-- The vectors, one per file with deleted rows; they join with $files on the data file.
SELECT f.min_key, f.max_key, v.deleted_record_count
FROM lake.crm.`users$deletion_vectors` AS v
JOIN lake.crm.`users$files` AS f ON v.data_file = f.file_path
ORDER BY f.min_sequence_number;

-- A full compaction drops the deleted rows, and the vectors with them: one file at the last level.
CALL lake.sys.compact('crm.users');
SELECT level, record_count, deleted_record_count FROM lake.crm.`users$files`;
SELECT COUNT(*) FROM lake.crm.`users$deletion_vectors`;
SELECT * FROM lake.crm.users ORDER BY id;
