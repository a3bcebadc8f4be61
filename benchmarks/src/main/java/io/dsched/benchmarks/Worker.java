package io.dsched.benchmarks;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The main class of a worker JVM: one node of one contestant. It loads, says {@code WARM}, waits
 * for {@code GO} on its standard input, starts the node, says {@code READY}, and stops the node
 * gracefully on {@code STOP} (or at the end of its input). Before that, for W5, it submits jobs
 * through its node on each {@code SUBMIT} plan ({@link Pacer.Plan}) and says {@code SUBMITTED
 * count} when done, or {@code SUBMIT-FAILED reason}.
 */
public final class Worker {

    /** What a worker prints before each word the coordinator waits for. */
    static final String MARK = "@@bench ";

    private Worker() {}

    /**
     * Runs one node.
     * @param args none; the node is described by {@code bench.*} system properties
     * @throws Exception if the node fails
     */
    public static void main(String[] args) throws Exception {
        BenchDatabase db = BenchDatabase.fromSystemProperties();
        Contestant contestant = Contestants.byName(System.getProperty("bench.contestant"));
        Workload workload = Workload.valueOf(System.getProperty("bench.workload"));
        String node = System.getProperty("bench.node");
        int threads = Integer.getInteger("bench.threads");
        RecurringPlan plan = (System.getProperty("bench.plan.cron") != null)
                ? new RecurringPlan(
                        Integer.getInteger("bench.plan.jobs"),
                        System.getProperty("bench.plan.cron"),
                        Integer.getInteger("bench.plan.period"))
                : null;
        Probe.open(db, node, threads, Duration.ofMillis(Long.getLong("bench.hold-ms", 0)), workload);
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        say("WARM");
        awaitCommand(commands, "GO");
        AutoCloseable running = contestant.start(db, new NodeSpec(node, threads, workload, plan));
        say("READY");
        serve(commands, contestant, running);
        long cpuMillis = ((com.sun.management.OperatingSystemMXBean)
                                java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                        .getProcessCpuTime()
                / 1_000_000;
        say("CPU " + cpuMillis);
        running.close();
        Probe.close();
        say("STOPPED");
        System.exit(0);
    }

    private static void say(String word) {
        System.out.println(MARK + word);
        System.out.flush();
    }

    /** Runs the {@code SUBMIT} plans it is given, until {@code STOP} or the end of its input. */
    private static void serve(BufferedReader commands, Contestant contestant, AutoCloseable running) throws Exception {
        String line;
        while ((line = commands.readLine()) != null) {
            String command = line.trim();
            if (command.equals("STOP")) {
                return;
            }
            if (command.startsWith(Pacer.COMMAND + " ")) {
                try (Submitter submitter = contestant.submitter(running)) {
                    say("SUBMITTED " + Pacer.run(Pacer.Plan.parse(command), submitter));
                } catch (Exception ex) {
                    say("SUBMIT-FAILED " + String.valueOf(ex).replaceAll("\\s+", " "));
                }
            }
        }
    }

    private static void awaitCommand(BufferedReader commands, String command) throws Exception {
        String line;
        while ((line = commands.readLine()) != null) {
            if (line.trim().equals(command)) {
                return;
            }
        }
    }
}
