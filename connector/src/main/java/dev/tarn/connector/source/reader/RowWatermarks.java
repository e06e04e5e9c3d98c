package dev.tarn.connector.source.reader;

import dev.tarn.connector.source.enumerator.TableWatermarks;
import javax.annotation.Nullable;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkGeneratorSupplier;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.clock.RelativeClock;
import org.apache.flink.util.clock.SystemClock;

/**
 * A reader's run of the declared watermark generator over every row it emits, across its splits:
 * the generator's watermarks are kept here, not emitted, and reported to the enumerator, which
 * makes a snapshot's watermark of the reports of every reader that read it ({@link
 * TableWatermarks}). Task thread only.
 */
public final class RowWatermarks implements WatermarkOutput {

    private final WatermarkGenerator<RowData> generator;
    private long watermark = Long.MIN_VALUE;

    public RowWatermarks(WatermarkStrategy<RowData> strategy, MetricGroup metrics) {
        this.generator =
                strategy.createWatermarkGenerator(
                        new WatermarkGeneratorSupplier.Context() {
                            @Override
                            public MetricGroup getMetricGroup() {
                                return metrics;
                            }

                            @Override
                            public RelativeClock getInputActivityClock() {
                                return SystemClock.getInstance();
                            }
                        });
    }

    void onRow(RowData row) {
        generator.onEvent(row, Long.MIN_VALUE, this);
    }

    /** The generator's watermark over the rows so far, or null if it has given none. */
    @Nullable
    public Long current() {
        generator.onPeriodicEmit(this);
        return watermark == Long.MIN_VALUE ? null : watermark;
    }

    @Override
    public void emitWatermark(Watermark mark) {
        watermark = Math.max(watermark, mark.getTimestamp());
    }

    @Override
    public void markIdle() {
        // Idleness is the enumerator's to judge, snapshot by snapshot.
    }

    @Override
    public void markActive() {}
}
