package io.dsched.internal.management.views;

import java.time.Duration;
import java.time.Instant;

/**
 * A scheduled job.
 *
 * @param name its name
 * @param kind {@code declared} (by an annotation) or {@code runtime} (through the API)
 * @param handler the handler a runtime job runs, or {@code null}
 * @param schedule the schedule in force, described
 * @param cron its cron expression, or {@code null}
 * @param zone its cron's zone, or {@code null} for the node's default
 * @param fixedRate its fixed rate, or {@code null}
 * @param fixedDelay its fixed delay, or {@code null}
 * @param params a runtime job's parameters as JSON, or {@code null}
 * @param nextFireAt when it fires next, or {@code null}
 * @param paused whether it is paused
 * @param lastRun its latest finished attempt, or {@code null}
 * @param stats its attempts within the window
 * @param openDeadLetters how many of its dead letters wait for an operator
 */
public record Job(
        String name,
        String kind,
        String handler,
        String schedule,
        String cron,
        String zone,
        Duration fixedRate,
        Duration fixedDelay,
        String params,
        Instant nextFireAt,
        boolean paused,
        LastRun lastRun,
        Stats stats,
        long openDeadLetters) {}
