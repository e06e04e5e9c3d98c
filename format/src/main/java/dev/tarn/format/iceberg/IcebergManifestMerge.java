package dev.tarn.format.iceberg;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TarnSnapshots;

/**
 * Keeps the number of Iceberg data manifests of a table bounded, as Iceberg's own appends do (its
 * {@code commit.manifest.min-count-to-merge} and {@code commit.manifest.target-size-bytes}
 * defaults): every Tarn append adds one manifest, so once a partition spec has {@link
 * #MIN_COUNT_TO_MERGE} data manifests, those smaller than {@link #TARGET_SIZE_BYTES} are merged
 * into manifests of about that size. Readers then open few manifests, and a commit that deletes
 * files rewrites few; the merge itself reads the small manifests once per {@link
 * #MIN_COUNT_TO_MERGE} commits.
 */
final class IcebergManifestMerge {

    static final int MIN_COUNT_TO_MERGE = 100;

    static final long TARGET_SIZE_BYTES = 8L << 20;

    private final IcebergTable iceberg;
    private final IcebergWriters writers;

    IcebergManifestMerge(IcebergTable iceberg, IcebergWriters writers) {
        this.iceberg = iceberg;
        this.writers = writers;
    }

    /**
     * {@code manifests} with the small data manifests that earlier snapshots wrote merged, for each
     * partition spec that has at least the threshold of them; the others as they are.
     */
    List<ManifestFile> apply(List<ManifestFile> manifests, TableMetadata shaped, long snapshotId) {
        Map<Integer, List<ManifestFile>> olderBySpec = new LinkedHashMap<>();
        List<ManifestFile> result = new ArrayList<>();
        for (ManifestFile m : manifests) {
            // Those this snapshot wrote are left out of the merge, so none is written in vain.
            if (m.content() == ManifestContent.DATA && m.snapshotId() != snapshotId) {
                olderBySpec.computeIfAbsent(m.partitionSpecId(), k -> new ArrayList<>()).add(m);
            } else {
                result.add(m);
            }
        }
        for (List<ManifestFile> ofSpec : olderBySpec.values()) {
            result.addAll(
                    ofSpec.size() >= MIN_COUNT_TO_MERGE
                            ? merged(ofSpec, shaped, snapshotId)
                            : ofSpec);
        }
        return result;
    }

    /** {@code ofSpec} with its small manifests packed, in order, into bins of the target size. */
    private List<ManifestFile> merged(
            List<ManifestFile> ofSpec, TableMetadata shaped, long snapshotId) {
        List<ManifestFile> out = new ArrayList<>();
        List<ManifestFile> bin = new ArrayList<>();
        long binBytes = 0;
        for (ManifestFile m : ofSpec) {
            if (m.length() >= TARGET_SIZE_BYTES) {
                out.add(m);
                continue;
            }
            if (!bin.isEmpty() && binBytes + m.length() > TARGET_SIZE_BYTES) {
                out.addAll(write(bin, shaped, snapshotId));
                bin = new ArrayList<>();
                binBytes = 0;
            }
            bin.add(m);
            binBytes += m.length();
        }
        out.addAll(write(bin, shaped, snapshotId));
        return out;
    }

    private List<ManifestFile> write(List<ManifestFile> bin, TableMetadata shaped, long id) {
        if (bin.size() < 2) {
            return bin;
        }
        return List.of(
                TarnSnapshots.merge(
                        bin,
                        iceberg.io(),
                        shaped.specsById(),
                        writers.manifests(
                                shaped.formatVersion(),
                                shaped.specsById().get(bin.get(0).partitionSpecId())),
                        iceberg.io().newOutputFile(iceberg.newManifest()),
                        id));
    }
}
