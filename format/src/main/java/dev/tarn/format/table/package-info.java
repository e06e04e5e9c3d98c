/**
 * What the seams take of a table: {@link dev.tarn.format.table.TableContext} (name, schema and
 * options, paths and file I/O, the publish step, the managers and reader of its snapshots and
 * schemas), and the opening of its data files with errors that name the table and the file.
 */
package dev.tarn.format.table;
