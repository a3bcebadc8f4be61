package io.dsched.benchmarks;

/**
 * Recurring jobs of a run: {@code jobs} jobs, each on the Spring six-field cron {@code cron}
 * (such as {@code "*&#47;5 * * * * *"}), named {@code bench-0} to {@code bench-(jobs-1)}.
 * @param jobs how many jobs
 * @param cron the cron of each, in UTC
 * @param periodSeconds the cron's period, for schedulers that only take a fixed rate
 */
public record RecurringPlan(int jobs, String cron, int periodSeconds) {

    /**
     * Returns the name of a job.
     * @param job its index
     * @return its name
     */
    public static String jobName(int job) {
        return "bench-" + job;
    }
}
