/**
 * Apache Iceberg metadata beside Tarn's own (SPEC.md, "Iceberg metadata"), for tables whose option
 * {@code metadata.iceberg.storage} is {@code table-location}: a commit hook writes {@code
 * metadata/v<N>.metadata.json}, its manifest list and manifests with Iceberg's own library before
 * snapshot N is published, and moves {@code version-hint.text} after it, so that any Iceberg reader
 * reads the table's data files without a copy.
 *
 * <pre>
 *   TableCommit --beforePublish--> IcebergCommit --> IcebergSnapshots (manifests, list)
 *                                                 --> IcebergSchemas (field ids, types)
 *               --afterPublish---> IcebergCommit --> IcebergMetadataJson (v<N> of an
 *                                                    IcebergVersion kept in memory)
 *                                                 --> version-hint.text
 *   Rollback    -----------------> IcebergMaintenance
 *   all files through IcebergFileIO over Tarn's FileIO (local or S3)
 * </pre>
 */
package dev.tarn.format.iceberg;
