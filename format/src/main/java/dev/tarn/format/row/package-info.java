/**
 * Rows in Flink's binary row layout, shared by the readers that write them (a Parquet reader writes
 * a decoded batch column by column) and by the callers that hand them on to another thread. Below
 * every other package of the format; it knows no file format and no table.
 */
package dev.tarn.format.row;
