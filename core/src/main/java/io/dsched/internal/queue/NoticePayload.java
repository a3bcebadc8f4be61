package io.dsched.internal.queue;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/** What a notice of due attempts says, on PostgreSQL's channel as on Redis's. */
final class NoticePayload {

    private NoticePayload() {}

    /**
     * What a notice of a job says: the time it was sent, by the sender's estimate of the
     * database's clock (every attempt it announces was due by then), and the job's name.
     * @param sentAt when the notice was sent
     * @param jobName the job
     * @return the payload
     */
    static String payload(Instant sentAt, String jobName) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, sentAt) + ":" + jobName;
    }

    /**
     * Reads a notice's payload; one without a time (a node of an earlier version sends the job's
     * name alone) names the job and no time.
     * @param payload what {@link #payload} wrote
     * @return the notice
     */
    static Heard heard(String payload) {
        int colon = payload.indexOf(':');
        try {
            long micros = Long.parseLong(payload.substring(0, Math.max(colon, 0)));
            return new Heard(payload.substring(colon + 1), Optional.of(Instant.EPOCH.plus(micros, ChronoUnit.MICROS)));
        } catch (NumberFormatException ex) {
            return new Heard(payload, Optional.empty());
        }
    }

    /**
     * A notice heard.
     * @param jobName the job whose attempts fell due
     * @param dueBy the time they were due by, if the notice says
     */
    record Heard(String jobName, Optional<Instant> dueBy) {}
}
