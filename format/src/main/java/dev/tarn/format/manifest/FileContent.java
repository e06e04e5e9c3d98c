package dev.tarn.format.manifest;

import java.util.Arrays;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * What a file of a table holds, recorded with the file in every manifest entry, commit message and
 * split (SPEC.md, "Manifest body"). Readers, writers, compaction and maintenance switch on it,
 * never on a file's name: the name prefix is for people, and for reading manifests of version 1,
 * which did not record the content.
 *
 * <p>Codes are part of the format: a new content takes the next code and never reuses one.
 */
public enum FileContent {

    /**
     * Rows of the table: the live files of snapshots, listed in their base and delta manifests; in
     * a primary-key table the sorted runs of a bucket, each file with a key range.
     */
    DATA((byte) 0, "data-", false),

    /**
     * Changes stored for streaming reads, in the order written (SPEC.md, "Changelog files"): listed
     * in a snapshot's changelog manifests, never live, no part of the table's rows.
     */
    CHANGELOG((byte) 1, "changelog-", true),

    /**
     * The previous rows of the keys one flush changed, in its key order: a changelog file that the
     * flush's level-0 data files complete (SPEC.md, "Changelog files").
     */
    BEFORE_IMAGES((byte) 2, "before-", true);

    /** The extension of every file these contents name: all of them are Parquet files. */
    private static final String EXTENSION = ".parquet";

    private final byte code;
    private final String prefix;
    private final boolean changelog;

    FileContent(byte code, String prefix, boolean changelog) {
        this.code = code;
        this.prefix = prefix;
        this.changelog = changelog;
    }

    /** The code manifests store for this content. */
    public byte code() {
        return code;
    }

    /**
     * Whether files of this content are changelog files: listed in a snapshot's changelog
     * manifests, read by streaming reads only, and never live files of a snapshot.
     */
    public boolean isChangelog() {
        return changelog;
    }

    /** A new, unique name for a file of this content: its prefix, a random UUID, the extension. */
    public String newFileName() {
        return prefix + UUID.randomUUID() + EXTENSION;
    }

    /** How the names writers give files of this content start (see {@link #newFileName}). */
    String prefix() {
        return prefix;
    }

    /**
     * The content with code {@code code}.
     *
     * @throws IllegalArgumentException naming the code and the known ones if there is none
     */
    public static FileContent fromCode(byte code) {
        for (FileContent content : values()) {
            if (content.code == code) {
                return content;
            }
        }
        throw new IllegalArgumentException(
                "Unknown file content code "
                        + code
                        + " (known: "
                        + Arrays.stream(values())
                                .map(c -> c.code + " " + c)
                                .collect(Collectors.joining(", "))
                        + ")");
    }
}
