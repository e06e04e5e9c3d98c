-- A bounded datagen job into a Tarn table, then an aggregate over what it wrote.
CREATE CATALOG lake WITH ('type' = 'tarn', 'warehouse' = '${warehouse}');
CREATE DATABASE IF NOT EXISTS lake.gen;

CREATE TEMPORARY TABLE gen (
  id BIGINT,
  k INT,
  name STRING,
  price DOUBLE
) WITH (
  'connector' = 'datagen',
  'number-of-rows' = '100000',
  'rows-per-second' = '100000000',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '100000',
  'fields.k.min' = '0', 'fields.k.max' = '9',
  'fields.name.length' = '8',
  'fields.price.min' = '0', 'fields.price.max' = '100'
);

CREATE TABLE lake.gen.items (id BIGINT, k INT, name STRING, price DOUBLE);
INSERT INTO lake.gen.items SELECT * FROM gen;

SELECT COUNT(*), COUNT(DISTINCT id), MIN(id), MAX(id) FROM lake.gen.items;
SELECT COUNT(*) FROM lake.gen.items WHERE id BETWEEN 1000 AND 1999;
