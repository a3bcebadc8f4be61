package io.dsched.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A worker JVM seen from the coordinator: started, told to go (and, in W5, to submit jobs), stopped
 * or killed.
 */
final class WorkerProcess implements AutoCloseable {

    /** Where Redis is, {@code host:port}, when the run has one ({@code --redis}). */
    static final String REDIS = "bench.redis";

    private final String node;

    private final Process process;

    private final PrintWriter commands;

    private final Set<String> said = ConcurrentHashMap.newKeySet();

    private volatile long cpuMillis = -1;

    WorkerProcess(String node, Process process, Path log) throws IOException {
        this.node = node;
        this.process = process;
        this.commands = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
        Writer out = Files.newBufferedWriter(log, StandardCharsets.UTF_8);
        Thread reader = new Thread(() -> copy(out), "bench-log-" + node);
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts a worker JVM.
     * @param db the database
     * @param contestant the contestant's name
     * @param spec the node
     * @param holdMillis how long a one-off body holds
     * @param logs where its output goes
     * @return the process
     * @throws IOException if it cannot start
     */
    static WorkerProcess start(BenchDatabase db, String contestant, NodeSpec spec, long holdMillis, Path logs)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx512m");
        command.add("-XX:+UseParallelGC");
        // JIT compiler threads that come and go would take their CPU time out of CpuMeter's readings
        command.add("-XX:-UseDynamicNumberOfCompilerThreads");
        String extra = System.getProperty("bench.worker-jvm-args", "").strip();
        if (!extra.isEmpty()) {
            command.addAll(List.of(extra.replace("{node}", spec.name()).split("\\s+")));
        }
        command.add("-Dbench.db.url=" + db.url());
        command.add("-Dbench.db.user=" + db.user());
        command.add("-Dbench.db.password=" + db.password());
        command.add("-Dbench.contestant=" + contestant);
        command.add("-Dbench.workload=" + spec.workload().name());
        command.add("-Dbench.node=" + spec.name());
        command.add("-Dbench.threads=" + spec.threads());
        command.add("-Dbench.hold-ms=" + holdMillis);
        if (System.getProperty(REDIS) != null) {
            command.add("-D" + REDIS + "=" + System.getProperty(REDIS));
        }
        if (spec.recurring() != null) {
            command.add("-Dbench.plan.jobs=" + spec.recurring().jobs());
            command.add("-Dbench.plan.cron=" + spec.recurring().cron());
            command.add("-Dbench.plan.period=" + spec.recurring().periodSeconds());
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(Worker.class.getName());
        Files.createDirectories(logs);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        return new WorkerProcess(spec.name(), process, logs.resolve(contestant + "-" + spec.name() + ".log"));
    }

    private void copy(Writer out) {
        try (out;
                BufferedReader lines = new BufferedReader(
                        new InputStreamReader(this.process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                if (line.startsWith(Worker.MARK)) {
                    String word = line.substring(Worker.MARK.length()).trim();
                    if (word.startsWith("CPU ")) {
                        this.cpuMillis = Long.parseLong(word.substring(4));
                    }
                    this.said.add(word);
                }
                out.write(line);
                out.write('\n');
            }
        } catch (IOException ex) {
            // the process ended
        }
    }

    /**
     * Returns the CPU time the worker JVM used, as it said when stopped.
     * @return milliseconds, or -1 if it did not say
     */
    long cpuMillis() {
        return this.cpuMillis;
    }

    long pid() {
        return this.process.pid();
    }

    String node() {
        return this.node;
    }

    void command(String word) {
        this.commands.println(word);
    }

    /**
     * Waits until the worker said a word.
     * @param word the word
     * @param timeout how long at most
     */
    void await(String word, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!this.said.contains(word)) {
            if (!this.process.isAlive()) {
                throw new IllegalStateException(
                        "Worker " + this.node + " ended before saying " + word + "; see its log");
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Worker " + this.node + " did not say " + word + " within " + timeout);
            }
            Harness.pause(20);
        }
    }

    /**
     * Waits until the worker has run the {@code SUBMIT} plan it was given.
     * @param timeout how long at most
     * @return how many jobs it submitted
     * @throws IllegalStateException if it could not submit, ended, or did not finish in time
     */
    int awaitSubmitted(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            for (String word : this.said) {
                if (word.startsWith("SUBMITTED ")) {
                    return Integer.parseInt(word.substring("SUBMITTED ".length()));
                }
                if (word.startsWith("SUBMIT-FAILED ")) {
                    throw new IllegalStateException(
                            "Worker " + this.node + " could not submit: " + word.substring("SUBMIT-FAILED ".length()));
                }
            }
            if (!this.process.isAlive()) {
                throw new IllegalStateException("Worker " + this.node + " ended while submitting; see its log");
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Worker " + this.node + " did not finish submitting within " + timeout);
            }
            Harness.pause(20);
        }
    }

    /** Ends the JVM at once, as {@code kill -9} does. */
    void kill() {
        this.process.destroyForcibly();
        try {
            this.process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops the node gracefully, and kills it if it does not stop within 30 s. */
    @Override
    public void close() {
        if (!this.process.isAlive()) {
            return;
        }
        command("STOP");
        try {
            if (!this.process.waitFor(30, TimeUnit.SECONDS)) {
                kill();
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            kill();
        }
    }
}
