package io.dsched.notify;

import java.time.Instant;
import java.util.Locale;

/**
 * Something about a job that a person should hear of. It holds no stack trace and no payload: those
 * may hold secrets, and stay in the dead letter.
 *
 * @param id identifies the notification, the same on every delivery of it, for a receiver to
 *     ignore a repeat
 * @param kind what happened
 * @param job the job (or handler)
 * @param executionId the attempt that caused it
 * @param attempt the number of that attempt, from 1
 * @param scheduledAt the time the fire was scheduled for
 * @param errorClass the class of the exception the attempt failed with, or {@code null} if unknown
 * @param errorMessage its message, at most {@value #MAX_ERROR_MESSAGE} characters, or {@code null}
 * @param streak how many fires of the job in a row have failed on this node, this one included
 * @param node the node that ran the attempt
 * @param time when the notification was raised
 */
public record Notification(
        String id,
        Kind kind,
        String job,
        long executionId,
        int attempt,
        Instant scheduledAt,
        String errorClass,
        String errorMessage,
        int streak,
        String node,
        Instant time) {

    /** Longest error message a notification carries, in characters. */
    public static final int MAX_ERROR_MESSAGE = 500;

    /**
     * Creates a notification, with an id made of its kind and execution id.
     * @param kind what happened
     * @param job the job
     * @param executionId the attempt that caused it
     * @param attempt the number of that attempt
     * @param scheduledAt the time the fire was scheduled for
     * @param failure what the attempt failed with, or {@code null} if unknown
     * @param streak the failed fires in a row on this node
     * @param node this node
     * @param time now
     * @return the notification
     */
    public static Notification of(
            Kind kind,
            String job,
            long executionId,
            int attempt,
            Instant scheduledAt,
            Throwable failure,
            int streak,
            String node,
            Instant time) {
        String message = (failure != null) ? failure.getMessage() : null;
        if (message != null && message.length() > MAX_ERROR_MESSAGE) {
            message = message.substring(0, MAX_ERROR_MESSAGE - 1) + "…";
        }
        return new Notification(
                kind.value() + "-" + executionId,
                kind,
                job,
                executionId,
                attempt,
                scheduledAt,
                (failure != null) ? failure.getClass().getName() : null,
                message,
                streak,
                node,
                time);
    }

    /** What a notification is about. */
    public enum Kind {

        /** A fire failed for good and was dead-lettered. */
        DEAD_LETTERED,

        /** A job's fires failed so many times in a row on one node ({@code dsched.notify.failure-streak}). */
        FAILURE_STREAK;

        /**
         * Returns the name of the event on the wire, such as {@code dead-lettered}.
         * @return the name
         */
        public String value() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }
}
