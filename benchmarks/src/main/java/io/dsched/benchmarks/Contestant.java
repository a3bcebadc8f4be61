package io.dsched.benchmarks;

import java.time.Duration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * One scheduler under test. The coordinator calls {@link #reset}, {@link #enqueue} and
 * {@link #defineRecurring} in its own JVM with no node of the contestant running; each worker JVM
 * calls {@link #start} once. In W5 the jobs are submitted while the nodes run, through {@link
 * #submitter} in a worker JVM or {@link #client} in the coordinator; in W6 they are stored by {@link
 * #enqueueLimited}. Every job body calls {@link Probe}, and nothing else.
 */
public interface Contestant {

    /**
     * Returns the name shown in the tables, such as {@code quartz-defaults}.
     * @return the name
     */
    String name();

    /**
     * Returns the library under test and its version, as found on the class path.
     * @return such as {@code Quartz 2.5.2}
     */
    String library();

    /**
     * Describes how the contestant, as W3 configures it, finds a dead node and runs its work again:
     * every contestant in W3 declares a node dead once its last sign of life is about 10 s old.
     * @return the description, for the W3 table
     */
    default String failureDetection() {
        return "n/a";
    }

    /**
     * Describes the contestant's setting for W5, the latency from a one-off's submission to its
     * start: what wakes a node when a job is submitted, and how often it polls otherwise.
     * @return the description, for the W5 tables
     */
    default String latencySetting() {
        return "n/a";
    }

    /**
     * Tells whether this contestant takes part in a workload.
     * @param workload the workload
     * @return {@code true} if it does
     */
    boolean supports(Workload workload);

    /**
     * Drops this contestant's tables, if they are there. Before every run the coordinator drops
     * every contestant's tables, so that each run starts from the same database.
     * @param db the database
     * @throws Exception if it cannot
     */
    void drop(BenchDatabase db) throws Exception;

    /**
     * Drops and creates this contestant's tables, so that a run starts from an empty store.
     * @param db the database
     * @throws Exception if it cannot
     */
    void reset(BenchDatabase db) throws Exception;

    /**
     * Stores one-off jobs due now, in the coordinator, with no node running. The job with index
     * {@code i} runs {@code Probe.oneOff(Integer.toString(i))}. Returns once all are stored.
     * @param db the database
     * @param count how many jobs
     * @return the time spent storing them, not counting the start and stop of the client
     * @throws Exception if it cannot
     */
    Duration enqueue(BenchDatabase db, int count) throws Exception;

    /**
     * Stores W6's one-off jobs due now, as {@link #enqueue} does, in the coordinator with no node
     * running. A contestant with cluster-wide limits stores them for a handler that declares the
     * shape's limit ({@link #declaresLimits}); the others store their plain job, as {@link
     * #enqueue} does.
     * @param db the database
     * @param count how many jobs
     * @param shape the limit
     * @return the time spent storing them, not counting the start and stop of the client
     * @throws Exception if it cannot
     */
    default Duration enqueueLimited(BenchDatabase db, int count, LimitShape shape) throws Exception {
        return enqueue(db, count);
    }

    /**
     * Tells whether the contestant's nodes hold W6's limits: its jobs of {@link #enqueueLimited}
     * declare them.
     * @return {@code true} if they do
     */
    default boolean declaresLimits() {
        return false;
    }

    /**
     * Describes the contestant's limit in a shape of W6, and its setting for the run.
     * @param shape the limit
     * @return the description, for the W6 tables
     */
    default String limitSetting(LimitShape shape) {
        return "none";
    }

    /**
     * Counts the one-off jobs stored by {@link #enqueue} whose completion the contestant has
     * committed to the database, in the coordinator, while or after the nodes run them. W1 measures
     * its throughput up to the moment this reaches every job. Its statements should carry the SQL
     * comment {@code bench-coordinator}, so that the profile of the database sessions leaves them
     * out.
     * @param jdbc the coordinator's connections
     * @param enqueued how many jobs {@link #enqueue} stored
     * @return how many have completed
     */
    long completedOneOffs(JdbcTemplate jdbc, int enqueued);

    /**
     * Stores recurring jobs, in the coordinator, for schedulers whose recurring jobs live in the
     * database; a no-op for those that declare them in code at {@link #start}. Job {@code j}
     * runs {@code Probe.recurring(j, scheduledFireTimeMillis)} on {@code plan.cron()}.
     * @param db the database
     * @param plan the jobs
     * @throws Exception if it cannot
     */
    void defineRecurring(BenchDatabase db, RecurringPlan plan) throws Exception;

    /**
     * Called in the coordinator once every worker JVM of a run has loaded, just before they all
     * start their nodes: the last moment with no node running. Does nothing unless the contestant
     * needs it.
     * @param db the database
     * @throws Exception if it cannot
     */
    default void nodesStarting(BenchDatabase db) throws Exception {}

    /**
     * Starts one node of the contestant, in a worker JVM. It runs what the coordinator stored
     * (and, for {@link Workload#W2_RECURRING}, declares {@code spec.recurring()} if its
     * recurring jobs live in code) with {@code spec.threads()} worker threads.
     * @param db the database
     * @param spec the node
     * @return the running node; closing it stops it gracefully
     * @throws Exception if it cannot start
     */
    AutoCloseable start(BenchDatabase db, NodeSpec spec) throws Exception;

    /**
     * Returns a submitter that submits one-off jobs through a running node, in that node's worker
     * JVM, with the contestant's public API: W5's jobs submitted on a node. Only contestants that
     * take part in {@link Workload#W5_SUBMIT_LATENCY} have one.
     * @param node what {@link #start} returned in this JVM
     * @return the submitter; closing it leaves the node running
     * @throws Exception if it cannot
     */
    default Submitter submitter(AutoCloseable node) throws Exception {
        throw new UnsupportedOperationException(name() + " submits no jobs from a node");
    }

    /**
     * Opens a client that submits one-off jobs and runs none, in the coordinator, while the nodes
     * run: W5's jobs submitted by a client. Only contestants that take part in {@link
     * Workload#W5_SUBMIT_LATENCY} have one.
     * @param db the database
     * @return the client; closing it closes the client
     * @throws Exception if it cannot
     */
    default Submitter client(BenchDatabase db) throws Exception {
        throw new UnsupportedOperationException(name() + " has no client for jobs submitted while nodes run");
    }
}
