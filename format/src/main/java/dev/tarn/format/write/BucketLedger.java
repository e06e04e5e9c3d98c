package dev.tarn.format.write;

import dev.tarn.format.lsm.tree.BucketTreeWriter;
import dev.tarn.format.manifest.DataFile;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What the writer of one bucket handed out for commits and has not yet seen published: new level-0
 * files and compactions. Told every change the table's snapshots make to the bucket, it separates
 * the writer's own changes from those of another writer or compaction job, which make the writer's
 * view of the bucket stale. A stale view can be rebuilt from the table once no compaction of the
 * writer may still be published (each is either seen or can no longer apply).
 */
final class BucketLedger {

    /** A compaction handed out: input and output file names. */
    private record Compaction(Set<String> inputs, Set<String> outputs) {}

    private final Map<String, DataFile> pendingNew = new LinkedHashMap<>();
    private final List<Compaction> compactions = new ArrayList<>();
    private final Set<String> foreignDeleted = new HashSet<>();

    void handedOut(BucketTreeWriter.Changes changes) {
        changes.newFiles().forEach(f -> pendingNew.put(f.fileName(), f));
        if (!changes.compactBefore().isEmpty() || !changes.compactAfter().isEmpty()) {
            compactions.add(
                    new Compaction(names(changes.compactBefore()), names(changes.compactAfter())));
        }
    }

    /**
     * Takes in what one snapshot changed in the bucket.
     *
     * @return false if some of it was not this writer's doing
     */
    boolean observe(PublishedFiles.Change change) {
        Set<String> added = new HashSet<>(change.added());
        Set<String> deleted = new HashSet<>(change.deleted());
        boolean own = true;
        for (var it = compactions.iterator(); it.hasNext(); ) {
            Compaction c = it.next();
            boolean published =
                    c.outputs().isEmpty()
                            ? !c.inputs().isEmpty() && deleted.containsAll(c.inputs())
                            : added.containsAll(c.outputs());
            if (published) {
                added.removeAll(c.outputs());
                deleted.removeAll(c.inputs());
                it.remove();
            }
        }
        for (String name : added) {
            own &= pendingNew.remove(name) != null;
        }
        if (!deleted.isEmpty()) {
            foreignDeleted.addAll(deleted);
            own = false;
        }
        return own;
    }

    /**
     * Whether none of the handed-out compactions may still be published: each lost an input to
     * another writer, or its outputs are gone (the commit that dropped it deleted them).
     */
    boolean settled(Predicate<String> outputExists) {
        Set<String> lost = new HashSet<>(foreignDeleted);
        for (Compaction c : compactions) {
            boolean doomed =
                    c.inputs().stream().anyMatch(lost::contains)
                            || c.outputs().stream().anyMatch(o -> !outputExists.test(o));
            if (!doomed) {
                return false;
            }
            lost.addAll(c.outputs());
        }
        return true;
    }

    /**
     * The bucket's view after a rebuild: its published files plus the new files handed out but not
     * yet seen published (appends always land). Forgets the compactions, which will never apply.
     */
    List<DataFile> rebuild(List<DataFile> published) {
        compactions.clear();
        foreignDeleted.clear();
        Set<String> names = names(published);
        List<DataFile> view = new ArrayList<>(published);
        pendingNew.values().stream().filter(f -> !names.contains(f.fileName())).forEach(view::add);
        return view;
    }

    private static Set<String> names(List<DataFile> files) {
        Set<String> names = new HashSet<>();
        files.forEach(f -> names.add(f.fileName()));
        return names;
    }
}
