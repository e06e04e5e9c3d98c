package dev.tarn.format.lsm.compaction;

import dev.tarn.format.lsm.KeyValue;
import dev.tarn.format.lsm.RowCopier;
import dev.tarn.format.lsm.run.FileRunMerge;
import dev.tarn.format.lsm.run.KeyValueFileWriter;
import dev.tarn.format.manifest.DataFile;
import dev.tarn.format.manifest.FileContent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;

/**
 * The changelog of one full compaction under {@code changelog-producer} = {@code full-compaction}
 * (SPEC.md, "Changelog files"): for each key, in key order, the row the last level held before (the
 * previous full compaction's result; the last level holds no tombstones) against the row the
 * compaction writes. {@code +I} new for a new key, {@code -U} old and {@code +U} new for a changed
 * one, {@code -D} old for one whose merged result is a tombstone or nothing, and nothing for a row
 * that stays the same in every column or a key that stays absent. So the changelogs of a bucket's
 * full compactions, applied in order from no rows, give the rows of its last level.
 *
 * <p>Runs on the compaction's thread; the files are the compaction's to publish or delete.
 */
final class FullCompactionChangelog implements FileRunMerge.Diff {

    private final KeyValueFileWriter out;
    private final RowCopier beforeCopier;
    private final RowCopier afterCopier;
    private byte[] beforeBytes = new byte[256];
    private byte[] afterBytes = new byte[256];

    FullCompactionChangelog(KeyValueFileWriter.Target target) {
        this.out = new KeyValueFileWriter(target.forChangelog(), 0, FileContent.CHANGELOG);
        this.beforeCopier = new RowCopier(target.schema().tableType());
        this.afterCopier = new RowCopier(target.schema().tableType());
    }

    @Override
    public void key(@Nullable KeyValue before, @Nullable KeyValue merged) {
        try {
            boolean after = merged != null && !merged.isRetraction();
            if (before == null) {
                if (after) {
                    out.writeChange(merged.sequence(), RowKind.INSERT, merged.row());
                }
            } else if (!after) {
                long sequence = merged == null ? before.sequence() : merged.sequence();
                out.writeChange(sequence, RowKind.DELETE, before.row());
            } else if (!sameRow(before.row(), merged.row())) {
                out.writeChange(merged.sequence(), RowKind.UPDATE_BEFORE, before.row());
                out.writeChange(merged.sequence(), RowKind.UPDATE_AFTER, merged.row());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot write the changelog of a full compaction: " + e.getMessage(), e);
        }
    }

    /** Finishes the changelog files, in the order written. */
    List<DataFile> finish() throws IOException {
        return out.finish();
    }

    /** Deletes the changelog files written. */
    void abort() {
        out.abort();
    }

    /** Whether two rows hold the same values: their binary forms but the row kind byte match. */
    private boolean sameRow(RowData before, RowData after) {
        int size = beforeCopier.prepare(before, RowKind.INSERT);
        if (afterCopier.prepare(after, RowKind.INSERT) != size) {
            return false;
        }
        if (beforeBytes.length < size) {
            beforeBytes = new byte[Math.max(size, 2 * beforeBytes.length)];
            afterBytes = new byte[beforeBytes.length];
        }
        beforeCopier.writePrepared(beforeBytes, 0);
        afterCopier.writePrepared(afterBytes, 0);
        return Arrays.equals(beforeBytes, 1, size, afterBytes, 1, size);
    }
}
