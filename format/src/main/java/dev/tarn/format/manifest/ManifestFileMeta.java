package dev.tarn.format.manifest;

import java.io.Serializable;

/** A manifest file as its manifest list records it. */
public record ManifestFileMeta(
        String fileName, long fileSize, long addedFiles, long deletedFiles, long schemaId)
        implements Serializable {}
