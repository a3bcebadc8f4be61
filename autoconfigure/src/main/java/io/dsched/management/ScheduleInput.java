package io.dsched.management;

import io.dsched.definition.Schedule;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.scheduling.support.CronExpression;

/**
 * A new schedule as a client sends it: a cron expression with an optional zone, or a fixed rate.
 *
 * @param cron a Spring cron expression (six fields), or {@code null}
 * @param zone the cron's zone, or {@code null} for the node's default
 * @param fixedRate a fixed rate such as {@code 30s} or {@code PT30S}, or {@code null}
 */
public record ScheduleInput(String cron, String zone, String fixedRate) {

    static final int MAX_LENGTH = 120;

    /**
     * Checks the input and turns it into a schedule.
     * @return the schedule
     * @throws ManagementException (400) naming the field at fault and why
     */
    public Schedule toSchedule() {
        if ((this.cron == null) == (this.fixedRate == null)) {
            throw ManagementException.badInput("cron", "Give either a cron or a fixedRate");
        }
        if (this.cron != null) {
            checkLength("cron", this.cron);
            try {
                CronExpression.parse(this.cron);
            } catch (IllegalArgumentException ex) {
                throw ManagementException.badInput(
                        "cron", "Invalid cron expression '" + this.cron + "': " + ex.getMessage());
            }
            return new Schedule.Cron(this.cron, zoneId());
        }
        if (this.zone != null) {
            throw ManagementException.badInput("zone", "A zone goes with a cron, not with a fixedRate");
        }
        checkLength("fixedRate", this.fixedRate);
        Duration rate;
        try {
            rate = DurationStyle.detectAndParse(this.fixedRate);
        } catch (IllegalArgumentException ex) {
            throw ManagementException.badInput(
                    "fixedRate", "Invalid fixedRate '" + this.fixedRate + "': use a duration such as 30s or PT30S");
        }
        if (rate.compareTo(Duration.ofSeconds(1)) < 0) {
            throw ManagementException.badInput("fixedRate", "fixedRate must be at least 1s, was " + this.fixedRate);
        }
        return new Schedule.FixedRate(rate, Duration.ZERO);
    }

    private ZoneId zoneId() {
        if (this.zone == null) {
            return null;
        }
        checkLength("zone", this.zone);
        try {
            return ZoneId.of(this.zone);
        } catch (DateTimeException ex) {
            throw ManagementException.badInput("zone", "Unknown time zone '" + this.zone + "'");
        }
    }

    private static void checkLength(String field, String value) {
        if (value.isBlank() || value.length() > MAX_LENGTH) {
            throw ManagementException.badInput(field, field + " must have 1 to " + MAX_LENGTH + " characters");
        }
    }
}
