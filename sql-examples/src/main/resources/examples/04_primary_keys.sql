-- A primary-key table: upserts, row-level DELETE and UPDATE, and the aggregation merge engine.
CREATE CATALOG lake WITH ('type' = 'tarn', 'warehouse' = '${warehouse}');
CREATE DATABASE IF NOT EXISTS lake.bank;

CREATE TABLE lake.bank.accounts (id BIGINT, owner STRING, balance DECIMAL(12, 2), dt STRING,
  PRIMARY KEY (id, dt) NOT ENFORCED) PARTITIONED BY (dt) WITH ('bucket' = '2');

INSERT INTO lake.bank.accounts VALUES
  (1, 'ada', 100.00, '2026-11-30'),
  (2, 'bob', -5.00, '2026-11-30'),
  (3, 'cy', 42.00, '2026-11-30');

-- The same keys again: the newest version of each key wins.
INSERT INTO lake.bank.accounts VALUES
  (1, 'ada', 150.00, '2026-11-30'),
  (3, 'cy', -1.00, '2026-11-30');

SELECT id, owner, balance FROM lake.bank.accounts ORDER BY id;

DELETE FROM lake.bank.accounts WHERE dt = '2026-11-30' AND balance < 0;
UPDATE lake.bank.accounts SET owner = 'ada lovelace' WHERE id = 1;
SELECT id, owner, balance FROM lake.bank.accounts ORDER BY id;

-- Aggregation: each version adds to the total of its key.
CREATE TABLE lake.bank.totals (owner STRING, total DECIMAL(12, 2), deposits BIGINT,
  PRIMARY KEY (owner) NOT ENFORCED)
  WITH ('merge-engine' = 'aggregation', 'fields.total.aggregate-function' = 'sum',
        'fields.deposits.aggregate-function' = 'sum');
INSERT INTO lake.bank.totals VALUES ('ada', 10.00, 1), ('bob', 5.00, 1);
INSERT INTO lake.bank.totals VALUES ('ada', 2.50, 1);
SELECT owner, total, deposits FROM lake.bank.totals ORDER BY owner;
