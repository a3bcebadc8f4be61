package io.dsched.benchmarks;

/**
 * The limits of W6 ({@link Workload#W6_LIMITS}), one table each: what dsched's handler declares,
 * and what every contestant's runs are held against. The peers have no cluster-wide limit and run
 * their plain job in both.
 */
public enum LimitShape {

    /** At most {@value #MAX_CONCURRENT} bodies running at once in the cluster. */
    CONCURRENCY,

    /** At most {@value #RATE_LIMIT} started: a token bucket of that many permits. */
    RATE;

    /** dsched's {@code @JobHandler(maxConcurrent)} in {@link #CONCURRENCY}. */
    public static final int MAX_CONCURRENT = 5;

    /** The permits of dsched's bucket in {@link #RATE}: refilled each period, and the most it holds. */
    public static final int RATE_PERMITS = 100;

    /** The period of dsched's bucket in {@link #RATE}. */
    public static final int RATE_PERIOD_SECONDS = 1;

    /** dsched's {@code @JobHandler(rate)} in {@link #RATE}. */
    public static final String RATE_LIMIT = RATE_PERMITS + "/" + RATE_PERIOD_SECONDS + "s";

    /** The window over which {@link #RATE} counts starts. */
    static final long RATE_WINDOW_MICROS = 1_000_000L;

    /**
     * Returns the most a run that holds the limit may show: bodies at once, or starts in any
     * window of {@link #RATE_WINDOW_MICROS} (a full bucket's burst of permits, and the permits
     * refilled over the window).
     * @return the bound
     */
    int bound() {
        return switch (this) {
            case CONCURRENCY -> MAX_CONCURRENT;
            case RATE -> RATE_PERMITS + (int) (RATE_PERMITS * RATE_WINDOW_MICROS / (RATE_PERIOD_SECONDS * 1_000_000L));
        };
    }

    /**
     * Returns the least time from the first start to the last that the limit allows, for a run
     * that holds it: waves of {@value #MAX_CONCURRENT} calls one after the other, or a full
     * bucket's burst and then the rest at the bucket's rate.
     * @param jobs the jobs of the run
     * @param callMillis how long a body takes
     * @return seconds
     */
    double leastSeconds(int jobs, int callMillis) {
        return switch (this) {
            case CONCURRENCY -> Math.max(0, (jobs + MAX_CONCURRENT - 1) / MAX_CONCURRENT - 1) * callMillis / 1000.0;
            case RATE -> Math.max(0, jobs - RATE_PERMITS) * (double) RATE_PERIOD_SECONDS / RATE_PERMITS;
        };
    }
}
