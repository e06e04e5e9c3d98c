/**
 * File I/O and the table layout. {@link dev.tarn.format.io.FileIO} is the set of file operations
 * Tarn needs of a file system or object store ({@link dev.tarn.format.io.FileIO#flinkFileSystems}
 * serves every scheme Flink has a file system for); {@link dev.tarn.format.io.TablePaths} is the
 * one place that knows where each file of a table lives (SPEC.md, "Layout"). On S3-compatible
 * stores ({@link dev.tarn.format.io.S3Options}) the small metadata files are read and written with
 * one request each, and created conditionally for the commit step, through the AWS SDK (one shared
 * client per set of settings); data files go through Flink's S3 file system. Each location gets its
 * implementation once, by its file system: local files (hard links, atomic moves), object stores
 * (the above), any other Flink file system (renames); none of them tests for another's store.
 * Nothing here knows what the files hold.
 */
package dev.tarn.format.io;
