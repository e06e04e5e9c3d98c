/**
 * File I/O and the table layout. {@link dev.tarn.format.io.FileIO} is the set of file operations
 * Tarn needs of a file system or object store ({@link dev.tarn.format.io.FileIO#flinkFileSystems}
 * serves every scheme Flink has a file system for); {@link dev.tarn.format.io.TablePaths} is the
 * one place that knows where each file of a table lives (SPEC.md, "Layout"). Nothing here knows
 * what the files hold.
 */
package dev.tarn.format.io;
