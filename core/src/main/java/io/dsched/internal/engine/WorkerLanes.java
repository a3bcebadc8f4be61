package io.dsched.internal.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The {@link WorkerLane}s of a {@link TimedWorkerPool}: the shared one, one per node group with
 * workers of its own, and, when there are such groups, the thread that spills the fires of a lane
 * with no free worker. Its lanes' counts are guarded by the pool's lock.
 */
final class WorkerLanes {

    private final WorkerLane shared;

    private final Map<String, WorkerLane> byGroup;

    /** Runs the spilled fires one after the other; {@code null} without groups of their own. */
    private final ThreadPoolExecutor spill;

    /**
     * Creates the lanes and starts their workers.
     * @param sharedThreads the shared lane's workers
     * @param groupThreads the workers of each group with a lane of its own
     * @param kind the kind of thread
     * @param namePrefix the prefix of the workers' names
     * @param ownThreads makes the pool's own platform threads, such as the spill thread
     */
    WorkerLanes(
            int sharedThreads,
            Map<String, Integer> groupThreads,
            WorkerThreads kind,
            String namePrefix,
            Function<String, ThreadFactory> ownThreads) {
        this.shared = new WorkerLane(sharedThreads, kind, namePrefix + "-");
        Map<String, WorkerLane> lanes = new HashMap<>();
        groupThreads.forEach(
                (group, threads) -> lanes.put(group, new WorkerLane(threads, kind, namePrefix + "-" + group + "-")));
        this.byGroup = Map.copyOf(lanes);
        this.spill = lanes.isEmpty()
                ? null
                : new ThreadPoolExecutor(
                        1,
                        1,
                        0,
                        TimeUnit.MILLISECONDS,
                        new LinkedBlockingQueue<>(),
                        ownThreads.apply(namePrefix + "-spill"));
    }

    /** The lane of a group's fires: its own, or the shared one. */
    WorkerLane of(String group) {
        return this.byGroup.getOrDefault(group, this.shared);
    }

    /**
     * Whether a fire of a lane is spilled rather than queued for one of its workers: when groups have
     * lanes of their own and every worker of its lane is busy. Called under the pool's lock.
     */
    boolean spills(WorkerLane lane) {
        return this.spill != null && lane.full();
    }

    /** Whether every lane's workers are busy. Called under the pool's lock. */
    boolean allBusy() {
        for (WorkerLane lane : all()) {
            if (!lane.full()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Runs a spilled fire on the spill thread.
     * @throws java.util.concurrent.RejectedExecutionException if the lanes were shut down
     */
    void spill(Runnable fire) {
        this.spill.execute(fire);
    }

    /** Takes the fires waiting for a worker out of every lane. */
    void drainWaiting(List<Runnable> into) {
        for (WorkerLane lane : all()) {
            lane.workers().getQueue().drainTo(into);
        }
    }

    /**
     * Has the workers and the spill thread take nothing more; a spilled fire still waiting is left to
     * the other nodes by the spill thread.
     */
    void shutdown() {
        if (this.spill != null) {
            this.spill.shutdown();
        }
        for (WorkerLane lane : all()) {
            lane.workers().shutdown();
        }
    }

    /** Waits for the spill thread and every worker to end, as long as their fires take. */
    void awaitTermination() throws InterruptedException {
        List<ThreadPoolExecutor> executors = new ArrayList<>();
        if (this.spill != null) {
            executors.add(this.spill);
        }
        for (WorkerLane lane : all()) {
            executors.add(lane.workers());
        }
        for (ThreadPoolExecutor executor : executors) {
            while (!executor.awaitTermination(1, TimeUnit.SECONDS)) {
                // Quartz's own pool waits for its running jobs as long as they take
            }
        }
    }

    private List<WorkerLane> all() {
        List<WorkerLane> all = new ArrayList<>(this.byGroup.values());
        all.add(this.shared);
        return all;
    }

    /**
     * Reads the threads of the groups with pools of their own, as {@code reports=4,payments=2}.
     * @param spec the groups and their threads; empty for none
     * @return the threads, by group
     * @throws IllegalArgumentException if the spec is malformed or a pool has no thread
     */
    static Map<String, Integer> groupThreads(String spec) {
        Map<String, Integer> threads = new LinkedHashMap<>();
        if (spec == null || spec.isBlank()) {
            return threads;
        }
        for (String pool : spec.split(",")) {
            String[] parts = pool.trim().split("=");
            int count;
            try {
                count = (parts.length == 2) ? Integer.parseInt(parts[1].trim()) : 0;
            } catch (NumberFormatException ex) {
                count = 0;
            }
            if (count < 1 || parts[0].isBlank()) {
                throw new IllegalArgumentException("A group's worker pool reads group=threads, with at least one"
                        + " thread: '" + pool.trim() + "'");
            }
            threads.put(parts[0].trim(), count);
        }
        return threads;
    }

    /**
     * Writes the threads of the groups with pools of their own, for {@link #groupThreads(String)}.
     * @param threads the threads, by group
     * @return the spec
     */
    static String spec(Map<String, Integer> threads) {
        StringBuilder spec = new StringBuilder();
        threads.forEach((group, count) ->
                spec.append(spec.isEmpty() ? "" : ",").append(group).append('=').append(count));
        return spec.toString();
    }
}
