/**
 * Schemas and options: a table's versioned schema files (fields with ids, partition and primary
 * keys, options), its kind (append or primary key), and every table option with its scope (per
 * query, ALTER TABLE, or fixed at creation), read once into a typed {@link
 * dev.tarn.format.schema.TableConfig}. Nothing else reads an option from the raw map.
 */
package dev.tarn.format.schema;
