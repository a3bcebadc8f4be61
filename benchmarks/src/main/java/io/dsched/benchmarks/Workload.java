package io.dsched.benchmarks;

/** The workloads of the benchmark. */
public enum Workload {
    /** One-off jobs due at once, executed by the nodes as fast as they can. */
    W1_ONE_OFF,
    /** Recurring jobs, all on the same cron, for a fixed window: how late each fire starts. */
    W2_RECURRING,
    /** Long-running one-off jobs in flight when one node is killed: how soon they run again. */
    W3_FAILOVER,
    /** More recurring fires than the nodes can run, through Quartz: fires per second. */
    W4_GUARD_OVERHEAD,
    /** One-off jobs submitted at a fixed rate while the nodes run: how soon after its submission each starts. */
    W5_SUBMIT_LATENCY,
    /** One-off jobs due at once under a cluster-wide concurrency or rate limit: how far over it each contestant goes. */
    W6_LIMITS,
    /** One recurring job whose every fire is split into many short shards, on 1, 2 and 3 nodes: how soon a fire completes. */
    W7_SHARDS
}
