package io.dsched.internal.notify;

import io.dsched.execution.ExecutionListener;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.Outcome;
import io.dsched.internal.execution.Sharding;
import io.dsched.notify.Notification;
import io.dsched.notify.Notification.Kind;
import io.dsched.notify.Notifier;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.function.SingletonSupplier;

/**
 * Turns the outcomes of this node's attempts into notifications for every {@link Notifier}: one
 * when a fire is dead-lettered, and one when a job's {@link FailureStreaks streak} of failed fires
 * reaches the threshold. A streak is reported once: the next report of the job follows a success
 * and a new streak.
 */
public final class NotificationListener implements ExecutionListener {

    private static final Logger logger = LoggerFactory.getLogger(NotificationListener.class);

    private final Supplier<? extends Collection<Notifier>> notifiers;

    private final FailureStreaks streaks = new FailureStreaks();

    private final int streakThreshold;

    private final String nodeId;

    private final Clock clock;

    /**
     * Creates the listener.
     * @param notifiers the notifiers, looked up once when the first notification is raised
     * @param streakThreshold how many failed fires in a row raise a failure-streak notification
     * @param nodeId this node
     * @param clock the clock
     */
    public NotificationListener(
            Supplier<? extends Collection<Notifier>> notifiers, int streakThreshold, String nodeId, Clock clock) {
        if (streakThreshold < 1) {
            throw new IllegalArgumentException(
                    "A failure streak to notify of must be at least 1 fire long, but is " + streakThreshold);
        }
        this.notifiers = SingletonSupplier.of(notifiers);
        this.streakThreshold = streakThreshold;
        this.nodeId = nodeId;
        this.clock = clock;
    }

    @Override
    public void finished(ExecutionRecord attempt, Outcome outcome, Duration duration, Throwable failure) {
        if (outcome == Outcome.SUCCEEDED) {
            this.streaks.succeeded(attempt.jobName());
            return;
        }
        if (outcome != Outcome.RETRY_SCHEDULED && outcome != Outcome.DEAD_LETTERED) {
            return;
        }
        // the shards of a fire fail as one fire of the streak
        String fire = (attempt.idempotencyKey().startsWith(attempt.jobName() + "@")
                        && Sharding.shardOf(attempt.idempotencyKey()) != null)
                ? ExecutionRecord.idempotencyKey(attempt.jobName(), attempt.scheduledAt())
                : attempt.idempotencyKey();
        Streak streak = this.streaks.failed(attempt.jobName(), fire);
        if (outcome == Outcome.DEAD_LETTERED) {
            send(notification(Kind.DEAD_LETTERED, attempt, failure, streak));
        }
        if (streak.lengthened() && streak.length() == this.streakThreshold) {
            send(notification(Kind.FAILURE_STREAK, attempt, failure, streak));
        }
    }

    /**
     * Returns the streaks of failed fires this node has seen.
     * @return the streaks
     */
    public FailureStreaks streaks() {
        return this.streaks;
    }

    private Notification notification(Kind kind, ExecutionRecord attempt, Throwable failure, Streak streak) {
        return Notification.of(
                kind,
                attempt.jobName(),
                attempt.id(),
                attempt.attempt(),
                attempt.scheduledAt(),
                failure,
                streak.length(),
                this.nodeId,
                this.clock.instant());
    }

    private void send(Notification notification) {
        for (Notifier notifier : this.notifiers.get()) {
            try {
                notifier.notify(notification);
            } catch (RuntimeException ex) {
                logger.warn(
                        "Notifier {} failed on the {} notification of '{}'; the job is not affected",
                        notifier,
                        notification.kind().value(),
                        notification.job(),
                        ex);
            }
        }
    }
}
