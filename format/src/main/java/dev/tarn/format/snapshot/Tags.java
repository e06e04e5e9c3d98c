package dev.tarn.format.snapshot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.io.TablePaths;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import javax.annotation.Nullable;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;

/**
 * The tags of a table (SPEC.md, "Tags"): named, pinned snapshots, each a file {@code
 * tag/tag-<name>} holding the snapshot's JSON and when the tag was made and for how long it is
 * kept. A tag file is created exclusively and never modified, so two creators of one name cannot
 * both win. Expiration, rollback and orphan cleanup keep every file a tag's snapshot needs; this
 * class only stores tags and knows nothing of their files.
 */
public final class Tags {

    /**
     * A tag.
     *
     * @param snapshot the pinned snapshot, as it was when tagged (it may have expired since)
     * @param createdMillis when the tag was made, epoch milliseconds
     * @param timeRetained how long after {@code createdMillis} the tag is kept; null: until deleted
     */
    public record Tag(
            String name, Snapshot snapshot, long createdMillis, @Nullable Duration timeRetained) {

        /** Whether the tag's retention has passed at {@code nowMillis}. */
        public boolean expiredAt(long nowMillis) {
            return timeRetained != null && createdMillis + timeRetained.toMillis() < nowMillis;
        }
    }

    private static final String PREFIX = "tag-";

    /** What a tag name may hold: it is part of a file name. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]+");

    private final FileIO io;
    private final Path dir;
    private final String table;
    private final SnapshotCommit publisher;

    /**
     * @param publisher creates tag files exclusively
     */
    public Tags(FileIO io, TablePaths paths, String table, SnapshotCommit publisher) {
        this.io = io;
        this.dir = paths.tagDir();
        this.table = table;
        this.publisher = publisher;
    }

    /** Every tag of the table, by snapshot id, then name. */
    public List<Tag> list() {
        List<Tag> tags = new ArrayList<>();
        try {
            for (FileStatus status : io.list(dir)) {
                String name = status.getPath().getName();
                if (name.startsWith(PREFIX)) {
                    get(name.substring(PREFIX.length())).ifPresent(tags::add);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list the tags of table " + table, e);
        }
        tags.sort(Comparator.comparingLong((Tag t) -> t.snapshot().id()).thenComparing(Tag::name));
        return tags;
    }

    /**
     * The tag {@code name}, if there is one.
     *
     * @throws IllegalArgumentException naming the file if it is corrupt
     */
    public Optional<Tag> get(String name) {
        Path path = path(checkedName(name));
        byte[] bytes;
        try {
            bytes = io.readAllBytes(path);
        } catch (FileNotFoundException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot read tag '" + name + "' of table " + table + " from " + path, e);
        }
        try {
            JsonNode root = SnapshotJson.tree(bytes);
            JsonNode retained = root.get("tagTimeRetainedMillis");
            return Optional.of(
                    new Tag(
                            name,
                            SnapshotJson.fromNode(root),
                            SnapshotJson.required(root, "tagCreateTimeMillis").asLong(),
                            retained == null || retained.isNull()
                                    ? null
                                    : Duration.ofMillis(retained.asLong())));
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    String.format(
                            "Corrupt tag file %s of table %s: %s", path, table, e.getMessage()),
                    e);
        }
    }

    /**
     * Creates tag {@code name} on {@code snapshot}.
     *
     * @param timeRetained how long the tag is kept; null: until deleted
     * @throws IllegalArgumentException naming the tag if the name is invalid or the tag exists
     */
    public Tag create(
            String name, Snapshot snapshot, @Nullable Duration timeRetained, long nowMillis) {
        Tag tag = new Tag(checkedName(name), snapshot, nowMillis, timeRetained);
        ObjectNode root = SnapshotJson.toNode(snapshot);
        root.put("tagCreateTimeMillis", nowMillis);
        if (timeRetained != null) {
            root.put("tagTimeRetainedMillis", timeRetained.toMillis());
        }
        boolean created;
        try {
            io.mkdirs(dir);
            created = publisher.publish(path(name), SnapshotJson.bytes(root, snapshot.id()));
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot create tag '" + name + "' of table " + table + ": " + e.getMessage(),
                    e);
        }
        if (!created) {
            throw new IllegalArgumentException(
                    String.format(
                            "Tag '%s' of table %s already exists (on snapshot %s); delete it"
                                    + " first or choose another name",
                            name,
                            table,
                            get(name).map(t -> String.valueOf(t.snapshot().id())).orElse("?")));
        }
        return tag;
    }

    /**
     * Deletes the tag file of {@code name}; the files only it kept are the caller's to delete.
     *
     * @return false if there was no such tag
     */
    public boolean delete(String name) {
        try {
            return io.delete(path(checkedName(name)), false);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot delete tag '" + name + "' of table " + table + ": " + e.getMessage(),
                    e);
        }
    }

    private Path path(String name) {
        return new Path(dir, PREFIX + name);
    }

    private String checkedName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    String.format(
                            "Invalid tag name '%s' for table %s: use letters, digits, '_', '-'"
                                    + " and '.'",
                            name, table));
        }
        return name;
    }
}
