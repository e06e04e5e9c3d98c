/**
 * Manifests: which data files make up a snapshot.
 *
 * <p>A manifest ({@code manifest/manifest-<uuid>}) is a list of entries, each adding or deleting
 * one file of one bucket of one partition, with the file's content ({@link
 * dev.tarn.format.manifest.FileContent}: data, changelog, before-images), size, row count, level,
 * sequence range and per-column statistics. Everything that treats files differently by what they
 * hold switches on that content, never on a file's name. A manifest list ({@code
 * manifest/manifest-list-<uuid>}) names manifests. Both are binary, framed by a magic, a format
 * version and a CRC-32 ({@code MetadataFrame}), so a damaged file fails with its name instead of
 * decoding garbage (see SPEC.md).
 *
 * <pre>
 *   snapshot --> manifest list --> manifest --> ADD f1, ADD f2, DELETE f0 ...
 * </pre>
 *
 * <p>Data file names are unique and a deleted file is never added again, so a snapshot's live files
 * are the files with an ADD and no DELETE entry, in any order ({@link
 * dev.tarn.format.manifest.LiveFiles}). That lets {@link dev.tarn.format.manifest.ManifestMerger}
 * merge any set of small manifests, which keeps commit and planning cost flat as snapshots
 * accumulate. Manifests are immutable, so parsed ones are cached by path.
 */
package dev.tarn.format.manifest;
