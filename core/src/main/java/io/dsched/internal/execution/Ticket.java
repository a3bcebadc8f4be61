package io.dsched.internal.execution;

import io.dsched.execution.ExecutionListener;
import java.time.Duration;
import java.util.Objects;

/**
 * A policy's answer.
 *
 * @param permit what the admitted attempt holds, or {@code null} if it is held back
 * @param delay how long a held attempt waits before it is claimed again
 * @param reason why it is held back, recorded with it
 * @param reported how listeners and metrics hear of the hold
 */
record Ticket(Permit permit, Duration delay, String reason, ExecutionListener.SkipReason reported) {

    /**
     * Admits an attempt.
     * @param permit what it holds until it ends
     * @return the ticket
     */
    public static Ticket admitted(Permit permit) {
        return new Ticket(Objects.requireNonNull(permit, "permit"), null, null, null);
    }

    /**
     * Holds an attempt back.
     * @param delay how long it waits before it is claimed again
     * @param reason why, recorded with it
     * @param reported how listeners and metrics hear of the hold
     * @return the ticket
     */
    public static Ticket held(Duration delay, String reason, ExecutionListener.SkipReason reported) {
        return new Ticket(
                null,
                Objects.requireNonNull(delay, "delay"),
                Objects.requireNonNull(reason, "reason"),
                Objects.requireNonNull(reported, "reported"));
    }

    /**
     * Tells whether the attempt may run now.
     * @return {@code true} if it is admitted
     */
    public boolean isAdmitted() {
        return this.permit != null;
    }
}
