package dev.tarn.format.lsm.run;

import dev.tarn.format.lsm.KeyValueSchema;
import dev.tarn.format.manifest.DataFile;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Splits a bucket's files into sections for reading: files sorted by smallest key and grouped while
 * key ranges overlap, so that no key is in two sections. A section of one file needs no merging;
 * the others are merged run by run. Sections come in key order.
 */
public final class Sections {

    private Sections() {}

    /**
     * @return per section its sorted runs, oldest first: the highest level first, level-0 files
     *     last in sequence order
     */
    public static List<List<SortedRun>> of(KeyValueSchema schema, List<DataFile> files) {
        List<DataFile> sorted = new ArrayList<>(files);
        sorted.sort((a, b) -> schema.compareKeys(a.keyRange().min(), b.keyRange().min()));
        List<List<SortedRun>> sections = new ArrayList<>();
        List<DataFile> section = new ArrayList<>();
        byte[] sectionMax = null;
        for (DataFile file : sorted) {
            if (sectionMax != null && schema.compareKeys(file.keyRange().min(), sectionMax) > 0) {
                sections.add(runs(section));
                section = new ArrayList<>();
                sectionMax = null;
            }
            section.add(file);
            if (sectionMax == null || schema.compareKeys(file.keyRange().max(), sectionMax) > 0) {
                sectionMax = file.keyRange().max();
            }
        }
        if (!section.isEmpty()) {
            sections.add(runs(section));
        }
        return sections;
    }

    /** Files of one section (in key order) as runs, oldest first. */
    private static List<SortedRun> runs(List<DataFile> files) {
        Map<Integer, List<DataFile>> byLevel = new TreeMap<>(Comparator.reverseOrder());
        List<DataFile> level0 = new ArrayList<>();
        for (DataFile f : files) {
            if (f.level() == 0) {
                level0.add(f);
            } else {
                byLevel.computeIfAbsent(f.level(), l -> new ArrayList<>()).add(f);
            }
        }
        List<SortedRun> runs = new ArrayList<>();
        byLevel.forEach((level, levelFiles) -> runs.add(new SortedRun(level, levelFiles)));
        level0.sort(Comparator.comparingLong((DataFile f) -> f.sequence().max()));
        level0.forEach(f -> runs.add(new SortedRun(0, List.of(f))));
        return runs;
    }
}
