package dev.tarn.connector.source.split;

import org.apache.flink.api.connector.source.SourceEvent;

/**
 * The enumerator's word to a reader that the table's watermark is {@code watermark} once the
 * snapshots up to {@code snapshotId} are read: the reader may emit it when it has read every split
 * of those snapshots it was given.
 */
public record SnapshotWatermark(long snapshotId, long watermark) implements SourceEvent {

    private static final long serialVersionUID = 1L;
}
