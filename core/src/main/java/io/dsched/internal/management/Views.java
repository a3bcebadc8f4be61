package io.dsched.internal.management;

import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.store.DeadLetter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** The shapes the management endpoint answers with; each is documented in the README. */
public final class Views {

    private Views() {}

    /**
     * The cluster at a glance.
     *
     * @param node the node that answered
     * @param nodes the nodes that have checked in
     * @param running attempts running now, cluster-wide
     * @param waiting attempts waiting to fall due or to be claimed (one-offs, retries, replays)
     * @param deadLetterBacklog open dead letters
     * @param window the window the counts cover
     * @param counts attempts that started within the window, by state
     * @param jobs how many jobs this node knows
     */
    public record Overview(
            String node,
            List<Node> nodes,
            long running,
            long waiting,
            long deadLetterBacklog,
            Duration window,
            Map<ExecutionStatus, Long> counts,
            int jobs) {}

    /**
     * A node of the cluster.
     *
     * @param id its id
     * @param startedAt when it joined
     * @param lastSeen its last check-in, in database time
     * @param alive whether it checked in within the node timeout
     * @param self whether it is the node that answered
     * @param clockOffsetSeconds how far its clock ran ahead of the database's at its last heartbeat
     *     (negative when behind), or {@code null} if not measured
     * @param clockSkewed whether that offset is beyond {@code dsched.cluster.max-clock-skew}, so that
     *     the node takes no fires
     */
    public record Node(
            String id,
            Instant startedAt,
            Instant lastSeen,
            boolean alive,
            boolean self,
            Double clockOffsetSeconds,
            boolean clockSkewed) {}

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
            Stats stats) {}

    /**
     * A job's latest finished attempt.
     *
     * @param executionId its id
     * @param status how it ended
     * @param finishedAt when
     */
    public record LastRun(long executionId, ExecutionStatus status, Instant finishedAt) {}

    /**
     * A job's attempts within a window.
     *
     * @param window the window
     * @param runs attempts that started in it and finished
     * @param succeeded of which succeeded
     * @param failed of which failed, timed out or were dead-lettered
     * @param successRate succeeded over runs, or {@code null} without runs
     * @param p95 the 95th percentile of their durations, or {@code null}
     */
    public record Stats(Duration window, long runs, long succeeded, long failed, Double successRate, Duration p95) {}

    /**
     * One job with its recent attempts.
     *
     * @param job the job
     * @param executions a page of its attempts, newest first
     */
    public record JobDetail(Job job, PageView<ExecutionRecord> executions) {}

    /**
     * One attempt, with what it failed with and what it logged.
     *
     * @param execution the attempt
     * @param zone the zone of its job's cron, or {@code null} when the job has none
     * @param attempts every attempt at the same fire, oldest first
     * @param deadLetter the dead letter the fire ended in, or {@code null}
     * @param log the lines the attempt logged and its failure's stack trace, or {@code null}
     */
    public record ExecutionDetail(
            ExecutionRecord execution,
            String zone,
            List<ExecutionRecord> attempts,
            DeadLetter deadLetter,
            Object log) {}

    /**
     * The cluster's recent attempts, minute by minute.
     *
     * @param from the start of the first minute
     * @param to the end of the last minute
     * @param minutes one entry per minute, oldest first
     * @param deadLetterBacklog open dead letters now
     * @param sampled whether only the latest attempts were counted, as there were more than the
     *     timeline reads at most
     */
    public record Timeline(Instant from, Instant to, List<Minute> minutes, long deadLetterBacklog, boolean sampled) {}

    /**
     * The attempts that started within one minute.
     *
     * @param at the start of the minute
     * @param started attempts that started in it
     * @param succeeded of which succeeded
     * @param failed of which failed, timed out or were dead-lettered
     * @param successRate succeeded over finished, or {@code null} when none finished
     * @param lagP50 the median of the fire lag of scheduled fires (start minus scheduled time), or
     *     {@code null} without scheduled fires
     * @param lagP95 the 95th percentile of that lag, or {@code null}
     */
    public record Minute(
            Instant at,
            long started,
            long succeeded,
            long failed,
            Double successRate,
            Duration lagP50,
            Duration lagP95) {}

    /**
     * The next fire times of a cron expression.
     *
     * @param cron the expression
     * @param zone the zone it is read in
     * @param next its next five fire times
     */
    public record SchedulePreview(String cron, String zone, List<Instant> next) {}

    /**
     * A page of a list.
     *
     * @param content the items
     * @param page the page number, from 0
     * @param size the page size
     * @param total how many items there are in all
     * @param <T> the item type
     */
    public record PageView<T>(List<T> content, int page, int size, long total) {

        /**
         * Converts a Spring Data page.
         * @param page the page
         * @param <T> the item type
         * @return the view
         */
        public static <T> PageView<T> of(org.springframework.data.domain.Page<T> page) {
            return new PageView<>(page.getContent(), page.getNumber(), page.getSize(), page.getTotalElements());
        }
    }
}
