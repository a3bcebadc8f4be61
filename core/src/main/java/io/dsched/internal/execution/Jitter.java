package io.dsched.internal.execution;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The offset of a fire's start within its job's jitter window: derived from the job's name and the
 * fire's time alone, so that every node gives a fire the same one, and spread evenly over the
 * window across the jobs and fires of a schedule.
 */
public final class Jitter {

    private Jitter() {}

    /**
     * Returns when a fire starts.
     * @param jobName the job
     * @param scheduledAt the fire's time
     * @param window the job's jitter window
     * @return the fire's time plus its offset, from zero up to, not including, the window
     */
    public static Instant startOf(String jobName, Instant scheduledAt, Duration window) {
        long millis = window.toMillis();
        if (millis <= 0) {
            return scheduledAt;
        }
        long hash = scheduledAt.toEpochMilli();
        for (byte b : jobName.getBytes(StandardCharsets.UTF_8)) {
            hash = (hash ^ (b & 0xff)) * 0x100000001b3L;
        }
        return scheduledAt.plusMillis(Math.floorMod(mix(hash), millis));
    }

    /**
     * Returns when a fire of a job this node declares, and does not run, falls due for the node
     * that runs it: at its offset time if the job has a jitter window, else at once.
     * @param jobName the job
     * @param scheduledAt the fire's time
     * @param declared what this node declares of the job, or empty
     * @param now the current time
     * @return the due time
     */
    static Instant dueAt(String jobName, Instant scheduledAt, Optional<JobTarget> declared, Instant now) {
        Instant start = declared.map(JobTarget::jitter)
                .map((window) -> startOf(jobName, scheduledAt, window))
                .orElse(now);
        return start.isAfter(now) ? start : now;
    }

    /**
     * Says why a fire waits for its offset time, for the history.
     * @param scheduledAt the fire's time
     * @param start when it starts
     * @param window the job's jitter window
     * @return the reason
     */
    static String reason(Instant scheduledAt, Instant start, Duration window) {
        return "staggered: due " + Duration.between(scheduledAt, start).toMillis() + " ms after its time, within a"
                + " jitter of " + window.toMillis() + " ms";
    }

    /** A 64-bit finaliser (MurmurHash3's), so that close inputs give unrelated offsets. */
    private static long mix(long value) {
        long h = value;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb93fe53a87ffL;
        h ^= h >>> 33;
        return h;
    }
}
