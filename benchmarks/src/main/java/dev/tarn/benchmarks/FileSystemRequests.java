package dev.tarn.benchmarks;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The calls {@link CountingFileSystem} received for paths under one directory, by kind of call,
 * since the last {@link #reset}.
 */
final class FileSystemRequests {

    private final String directory;
    private final Map<String, LongAdder> calls = new ConcurrentHashMap<>();

    FileSystemRequests(String directory) {
        this.directory = directory.endsWith("/") ? directory : directory + "/";
    }

    void count(String call, String path) {
        if (path.startsWith(directory) || (path + "/").equals(directory)) {
            calls.computeIfAbsent(call, c -> new LongAdder()).increment();
        }
    }

    void reset() {
        calls.clear();
    }

    /** The calls so far by kind, in the order of their names. */
    Map<String, Long> byKind() {
        Map<String, Long> counts = new TreeMap<>();
        calls.forEach((call, n) -> counts.put(call, n.sum()));
        return counts;
    }

    long total() {
        return byKind().values().stream().mapToLong(Long::longValue).sum();
    }
}
