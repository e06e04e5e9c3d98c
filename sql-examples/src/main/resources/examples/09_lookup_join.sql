-- Enriching facts with a table's current rows: a lookup join, the table on the right side of
-- FOR SYSTEM_TIME AS OF the facts' processing time. Each fact looks up the rows current when it
-- is processed; the join follows later commits to the table (see "Lookup joins" in the README).
CREATE CATALOG lake WITH ('type' = 'tarn', 'warehouse' = '${warehouse}');
CREATE DATABASE IF NOT EXISTS lake.crm;

CREATE TABLE lake.crm.customers (id BIGINT, name STRING, tier STRING,
    PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '2');
INSERT INTO lake.crm.customers VALUES (1, 'ada', 'gold'), (2, 'bob', 'silver'), (3, 'cy', 'gold');
INSERT INTO lake.crm.customers VALUES (2, 'bob', 'gold');
DELETE FROM lake.crm.customers WHERE id = 3;

CREATE TABLE lake.crm.orders (oid BIGINT, customer_id BIGINT, amount INT);
INSERT INTO lake.crm.orders VALUES (10, 1, 5), (11, 2, 7), (12, 3, 9), (13, 4, 2);

-- The facts need a processing-time attribute to join FOR SYSTEM_TIME AS OF.
CREATE TEMPORARY VIEW orders_now AS SELECT *, PROCTIME() AS proc_time FROM lake.crm.orders;

-- A left join keeps the orders whose customer is absent (4) or deleted (3).
SELECT o.oid, o.amount, c.name, c.tier
FROM orders_now AS o
LEFT JOIN lake.crm.customers FOR SYSTEM_TIME AS OF o.proc_time AS c ON o.customer_id = c.id
ORDER BY o.oid;

-- The join key is the table's bucket key: with 'shuffle' each join subtask receives the orders
-- of its buckets and holds only those buckets' rows.
SELECT /*+ LOOKUP('table' = 'c', 'shuffle' = 'true') */ o.oid, c.name
FROM orders_now AS o
JOIN lake.crm.customers FOR SYSTEM_TIME AS OF o.proc_time AS c ON o.customer_id = c.id
ORDER BY o.oid;
