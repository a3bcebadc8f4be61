package io.dsched.internal.execution;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The worker pools of a node, its bulkheads: a group named in {@code dsched.node.group-threads}
 * runs its attempts on threads of its own, so that a slow group cannot take the threads of
 * another; every other group this node serves, and dsched's own jobs, share the node's pool of
 * {@code dsched.threads}. Each pool has as many threads for fires as for the queue's attempts.
 */
public final class WorkerPools {

    /** The name of the pool the groups without threads of their own share. */
    public static final String SHARED = "";

    private final NodeGroups groups;

    private final int sharedThreads;

    private final Map<String, Integer> own;

    /**
     * Creates the pools of a node.
     * @param groups the groups the node serves
     * @param sharedThreads the threads of the shared pool ({@code dsched.threads})
     * @param groupThreads the threads of each group that has a pool of its own
     * @throws IllegalArgumentException if a pool has no thread, or a group with a pool of its own is
     *     not one the node serves
     */
    public WorkerPools(NodeGroups groups, int sharedThreads, Map<String, Integer> groupThreads) {
        if (sharedThreads < 1) {
            throw new IllegalArgumentException("dsched.threads must be at least 1: " + sharedThreads);
        }
        Map<String, Integer> own = new LinkedHashMap<>();
        for (Map.Entry<String, Integer> pool : groupThreads.entrySet()) {
            String group = pool.getKey();
            if (!groups.served().contains(group)) {
                throw new IllegalArgumentException("dsched.node.group-threads." + group + ": this node does not serve"
                        + " group '" + group + "' (dsched.node.groups=" + groups + "); a group name with '.', '_' or"
                        + " capitals is written in brackets: dsched.node.group-threads.[" + group + "]");
            }
            if (pool.getValue() == null || pool.getValue() < 1) {
                throw new IllegalArgumentException(
                        "dsched.node.group-threads." + group + " must be at least 1: " + pool.getValue());
            }
            own.put(group, pool.getValue());
        }
        this.groups = groups;
        this.sharedThreads = sharedThreads;
        this.own = Map.copyOf(own);
    }

    /**
     * The pools of a node whose groups all share one pool.
     * @param groups the groups the node serves
     * @param threads the threads of the pool
     * @return the pools
     */
    public static WorkerPools shared(NodeGroups groups, int threads) {
        return new WorkerPools(groups, threads, Map.of());
    }

    /**
     * Returns the groups the node serves.
     * @return the groups
     */
    public NodeGroups groups() {
        return this.groups;
    }

    /**
     * Returns the threads of each group with a pool of its own.
     * @return the threads, by group
     */
    public Map<String, Integer> groupThreads() {
        return this.own;
    }

    /**
     * Returns the pool a group's attempts run in on this node.
     * @param group the group
     * @return the group, if it has a pool of its own, else {@link #SHARED}
     */
    public String poolOf(String group) {
        return this.own.containsKey(group) ? group : SHARED;
    }

    /**
     * Returns each pool with the targets it runs: the shared pool first, then those of the groups
     * with pools of their own, by name.
     * @param declared the targets this node declares
     * @return the pools
     */
    public List<Pool> pools(JobTargets declared) {
        List<Pool> pools = new ArrayList<>();
        Set<String> separate = this.own.keySet();
        Predicate<String> shared = (group) -> this.groups.serves(group) && !separate.contains(group);
        pools.add(new Pool(SHARED, this.sharedThreads, new ServedTargets(declared, shared)));
        this.own.keySet().stream()
                .sorted()
                .forEach((group) ->
                        pools.add(new Pool(group, this.own.get(group), new ServedTargets(declared, group::equals))));
        return pools;
    }

    /**
     * A worker pool and the targets whose attempts it runs.
     * @param name the group it is of, or {@link #SHARED}
     * @param threads its threads
     * @param targets a view of the targets it runs, which follows the declared targets
     */
    public record Pool(String name, int threads, JobTargets targets) {}
}
