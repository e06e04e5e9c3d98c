package dev.tarn.format.manifest;

import java.io.Serializable;

/** One bucket of one partition: the unit that files, writers and splits belong to. */
public record BucketId(Partition partition, int bucket) implements Serializable {}
