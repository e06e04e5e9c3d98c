package dev.tarn.assembly.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A JVM this test started, its standard output and error going to one file. Every process started
 * here is registered until it is killed, and a JVM shutdown hook kills whatever is left (with its
 * descendants), so no JobManager, TaskManager or SQL client outlives the test, whichever way it
 * ends.
 */
final class JavaProcess {

    private static final List<JavaProcess> LIVE = new CopyOnWriteArrayList<>();

    static {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(JavaProcess::killAll, "kill-spawned-processes"));
    }

    private final String name;
    private final Process process;
    private final Path output;

    private JavaProcess(String name, Process process, Path output) {
        this.name = name;
        this.process = process;
        this.output = output;
    }

    /**
     * Starts {@code mainClass} in a new JVM of the running Java installation.
     *
     * @param output where the process's standard output and error go (appended)
     */
    static JavaProcess start(
            String name,
            List<String> jvmArgs,
            List<Path> classPath,
            String mainClass,
            List<String> args,
            Map<String, String> env,
            Path output)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // Its temporary files (Flink's, and a killed TaskManager's spill directory) go where the
        // test's go.
        command.add("-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"));
        command.addAll(jvmArgs);
        command.add("-cp");
        command.add(
                String.join(
                        java.io.File.pathSeparator,
                        classPath.stream().map(Path::toString).toList()));
        command.add(mainClass);
        command.addAll(args);
        Files.createDirectories(output.getParent());
        ProcessBuilder builder =
                new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()));
        builder.environment().putAll(env);
        Process process = builder.start();
        process.getOutputStream().close(); // no input: a SQL client reads its script, not stdin
        JavaProcess started = new JavaProcess(name, process, output);
        LIVE.add(started);
        return started;
    }

    String name() {
        return name;
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Waits for the process to exit, killing it when it takes longer than the timeout. */
    int waitFor(long timeout, TimeUnit unit) throws InterruptedException {
        if (!process.waitFor(timeout, unit)) {
            kill();
            throw new IllegalStateException(
                    "Process "
                            + name
                            + " did not exit within "
                            + timeout
                            + " "
                            + unit
                            + "\n"
                            + tail(40));
        }
        LIVE.remove(this);
        return process.exitValue();
    }

    /** SIGKILL to the process and its descendants (kill -9: no shutdown hook, no cleanup). */
    void kill() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LIVE.remove(this);
    }

    static void killAll() {
        for (JavaProcess p : LIVE) {
            p.kill();
        }
    }

    /** The whole output so far. */
    String output() {
        try {
            return Files.readString(output, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The last {@code lines} lines of the output, headed by the process's name and file. */
    String tail(int lines) {
        return tailOf(name, output, lines);
    }

    static String tailOf(String name, Path file, int lines) {
        if (!Files.exists(file)) {
            return "== " + name + ": no file " + file + "\n";
        }
        try {
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
            List<String> last = all.subList(Math.max(0, all.size() - lines), all.size());
            return "== "
                    + name
                    + " ("
                    + file
                    + ", last "
                    + last.size()
                    + " lines)\n"
                    + String.join("\n", last)
                    + "\n";
        } catch (IOException e) {
            return "== " + name + ": cannot read " + file + ": " + e + "\n";
        }
    }
}
