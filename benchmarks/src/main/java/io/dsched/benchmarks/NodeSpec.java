package io.dsched.benchmarks;

/**
 * One node of a run.
 * @param name the node's name, unique in the run ({@code node-1}, ...)
 * @param threads how many jobs it runs at once
 * @param workload the workload
 * @param recurring the recurring jobs, or {@code null} when the workload has none
 */
public record NodeSpec(String name, int threads, Workload workload, RecurringPlan recurring) {}
