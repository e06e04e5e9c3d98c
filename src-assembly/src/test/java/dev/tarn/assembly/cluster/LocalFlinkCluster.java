package dev.tarn.assembly.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A standalone Flink session cluster of separate JVMs on loopback, started as Flink's scripts start
 * one: a JobManager ({@code StandaloneSessionClusterEntrypoint}) and TaskManagers ({@code
 * TaskManagerRunner}), each with the memory settings Flink's {@code BashJavaUtils} derives from the
 * configuration, only Flink's jars and Tarn's shaded jar on their class paths, and a log file each.
 * {@link #close} kills every process it started.
 */
final class LocalFlinkCluster implements AutoCloseable {

    static final String HOST = "127.0.0.1";

    /** Slots per TaskManager: one for a streaming job, one for a query beside it. */
    static final int SLOTS = 2;

    private static final String LOOPBACK = "127.0.0.1";

    private final FlinkRuntime runtime;
    private final Path pluginsDir;
    private final Path confDir;
    private final Path logDir;
    private final ClusterRest rest;
    private final List<JavaProcess> processes = new ArrayList<>();
    private List<String> taskManagerJvm;
    private List<String> taskManagerDynamic;
    private int taskManagers;
    private JavaProcess taskManager;

    private LocalFlinkCluster(
            FlinkRuntime runtime, Path confDir, Path logDir, int restPort, Path pluginsDir) {
        this.runtime = runtime;
        this.pluginsDir = pluginsDir;
        this.confDir = confDir;
        this.logDir = logDir;
        this.rest = new ClusterRest(HOST, restPort);
    }

    /**
     * Writes a configuration under {@code workDir}, starts a JobManager and one TaskManager, and
     * waits until the TaskManager's slots are registered.
     */
    static LocalFlinkCluster start(
            FlinkRuntime runtime, Path workDir, Path logDir, Warehouse warehouse)
            throws IOException, InterruptedException {
        int restPort = freePort();
        Path confDir = Files.createDirectories(workDir.resolve("conf"));
        Map<String, String> config = new LinkedHashMap<>();
        config.put("jobmanager.rpc.address", LOOPBACK);
        config.put("jobmanager.rpc.port", Integer.toString(freePort()));
        config.put("jobmanager.bind-host", LOOPBACK);
        config.put("jobmanager.memory.process.size", "768m");
        config.put("taskmanager.host", LOOPBACK);
        config.put("taskmanager.bind-host", LOOPBACK);
        config.put("taskmanager.memory.process.size", "1g");
        // Tarn's writers buffer on the task heap, not in managed memory.
        config.put("taskmanager.memory.managed.fraction", "0.1");
        config.put("taskmanager.numberOfTaskSlots", Integer.toString(SLOTS));
        config.put("rest.address", LOOPBACK);
        config.put("rest.bind-address", LOOPBACK);
        config.put("rest.port", Integer.toString(restPort));
        config.put("execution.target", "remote");
        config.put("parallelism.default", "1");
        config.put("io.tmp.dirs", Files.createDirectories(workDir.resolve("tmp")).toString());
        config.put(
                "execution.checkpointing.dir", workDir.resolve("checkpoints").toUri().toString());
        // A killed TaskManager is noticed within seconds, as a tuned production cluster would.
        config.put("heartbeat.interval", "1000");
        config.put("heartbeat.timeout", "5000");
        config.put("restart-strategy.type", "fixed-delay");
        config.put("restart-strategy.fixed-delay.attempts", "5");
        config.put("restart-strategy.fixed-delay.delay", "500 ms");
        config.putAll(warehouse.flinkConfig());
        Files.writeString(
                confDir.resolve("config.yaml"),
                config.entrySet().stream()
                        .map(e -> e.getKey() + ": " + e.getValue())
                        .collect(Collectors.joining("\n", "", "\n")));
        Files.writeString(
                confDir.resolve("log4j.properties"),
                String.join(
                        "\n",
                        "rootLogger.level = INFO",
                        "rootLogger.appenderRef.file.ref = MainAppender",
                        "appender.main.name = MainAppender",
                        "appender.main.type = File",
                        "appender.main.fileName = ${sys:log.file}",
                        "appender.main.layout.type = PatternLayout",
                        "appender.main.layout.pattern = %d{HH:mm:ss,SSS} %-5p %-60c %x - %m%n",
                        ""));
        LocalFlinkCluster cluster =
                new LocalFlinkCluster(runtime, confDir, logDir, restPort, warehouse.pluginsDir());
        try {
            cluster.startProcesses();
        } catch (IOException | InterruptedException | RuntimeException e) {
            String logs = cluster.logTails(40);
            cluster.close();
            throw new IllegalStateException(
                    "Cannot start the Flink cluster: " + e + "\n" + logs, e);
        }
        return cluster;
    }

    private void startProcesses() throws IOException, InterruptedException {
        List<List<String>> jm = resources("GET_JM_RESOURCE_PARAMS", "jobmanager-resources");
        List<List<String>> tm = resources("GET_TM_RESOURCE_PARAMS", "taskmanager-resources");
        taskManagerJvm = tm.get(0);
        taskManagerDynamic = tm.get(1);
        processes.add(
                launch(
                        "jobmanager",
                        jm.get(0),
                        "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint",
                        jm.get(1)));
        startTaskManager();
        awaitFreeSlots(SLOTS, Duration.ofSeconds(90));
    }

    /** Starts one more TaskManager; its slots register with the JobManager shortly after. */
    JavaProcess startTaskManager() throws IOException {
        JavaProcess tm =
                launch(
                        "taskmanager-" + ++taskManagers,
                        taskManagerJvm,
                        "org.apache.flink.runtime.taskexecutor.TaskManagerRunner",
                        taskManagerDynamic);
        processes.add(tm);
        taskManager = tm;
        return tm;
    }

    /** The TaskManager started last. */
    JavaProcess taskManager() {
        return taskManager;
    }

    /** Waits until the registered TaskManagers offer at least {@code slots} free slots. */
    void awaitFreeSlots(int slots, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (rest.freeSlots() < slots) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "Flink cluster at "
                                + rest.address()
                                + " offers "
                                + rest.freeSlots()
                                + " free slots after "
                                + timeout
                                + ", expected "
                                + slots
                                + "\n"
                                + logTails(40));
            }
            for (JavaProcess p : processes) {
                if (p.name().equals("jobmanager") && !p.isAlive()) {
                    throw new IllegalStateException("The JobManager exited\n" + logTails(60));
                }
            }
            Thread.sleep(200);
        }
    }

    ClusterRest rest() {
        return rest;
    }

    Path confDir() {
        return confDir;
    }

    FlinkRuntime runtime() {
        return runtime;
    }

    Path logDir() {
        return logDir;
    }

    /** The last lines of every log and output file the cluster and its clients wrote. */
    String logTails(int lines) {
        try (Stream<Path> files = Files.list(logDir)) {
            return files.sorted()
                    .map(f -> JavaProcess.tailOf(f.getFileName().toString(), f, lines))
                    .collect(Collectors.joining("\n"));
        } catch (IOException e) {
            return "(cannot list " + logDir + ": " + e + ")";
        }
    }

    @Override
    public void close() {
        for (JavaProcess p : processes) {
            p.kill();
        }
        processes.clear();
    }

    private JavaProcess launch(String name, List<String> jvm, String main, List<String> dynamic)
            throws IOException {
        List<String> jvmArgs = new ArrayList<>(jvm);
        jvmArgs.addAll(JvmOptions.FLINK_DEFAULT_OPTS);
        jvmArgs.addAll(logArgs(name));
        List<String> args = new ArrayList<>(List.of("--configDir", confDir.toString()));
        args.addAll(dynamic);
        return JavaProcess.start(
                name,
                jvmArgs,
                runtime.clusterClassPath(),
                main,
                args,
                environment(),
                logDir.resolve(name + ".out"));
    }

    /**
     * The environment of every Flink process, the SQL client's included: the configuration
     * directory and, where the warehouse needs a file system plugin, the plugins directory (Flink
     * reads both from the environment, as its scripts set them).
     */
    Map<String, String> environment() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("FLINK_CONF_DIR", confDir.toString());
        if (pluginsDir != null) {
            env.put("FLINK_PLUGINS_DIR", pluginsDir.toString());
        }
        return env;
    }

    List<String> logArgs(String name) {
        return List.of(
                "-Dlog.file=" + logDir.resolve(name + ".log"),
                "-Dlog4j.configurationFile=" + confDir.resolve("log4j.properties").toUri());
    }

    /** The JVM options and dynamic properties Flink's scripts would pass, from BashJavaUtils. */
    private List<List<String>> resources(String command, String name)
            throws IOException, InterruptedException {
        JavaProcess utils =
                JavaProcess.start(
                        name,
                        List.of("-Xmx128m"),
                        runtime.lib(),
                        "org.apache.flink.runtime.util.bash.BashJavaUtils",
                        List.of(command, "--configDir", confDir.toString()),
                        Map.of(),
                        logDir.resolve(name + ".out"));
        if (utils.waitFor(60, TimeUnit.SECONDS) != 0) {
            throw new IllegalStateException(
                    "BashJavaUtils " + command + " failed\n" + utils.tail(30));
        }
        String prefix = "BASH_JAVA_UTILS_EXEC_RESULT:";
        List<String> results =
                utils.output()
                        .lines()
                        .filter(l -> l.startsWith(prefix))
                        .map(l -> l.substring(prefix.length()).strip())
                        .toList();
        if (results.size() < 2) {
            throw new IllegalStateException(
                    "BashJavaUtils " + command + " printed no result\n" + utils.tail(30));
        }
        List<String> jvm = Arrays.asList(results.get(results.size() - 2).split("\\s+"));
        List<String> dynamic = Arrays.asList(results.get(results.size() - 1).split("\\s+"));
        return List.of(jvm, dynamic);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
            return socket.getLocalPort();
        }
    }
}
