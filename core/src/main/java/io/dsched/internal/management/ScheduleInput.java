package io.dsched.internal.management;

import io.dsched.definition.Schedule;
import io.dsched.jobs.JobScheduler;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.List;
import org.springframework.format.datetime.standard.DurationFormatterUtils;
import org.springframework.scheduling.support.CronExpression;
import org.springframework.util.StringUtils;

/**
 * A new schedule as a client sends it: a cron expression with an optional zone, or a fixed rate.
 *
 * @param cron a Spring cron expression (six fields), or {@code null}
 * @param zone the cron's zone, or {@code null} for the node's default
 * @param fixedRate a fixed rate such as {@code 30s} or {@code PT30S}, or {@code null}
 */
public record ScheduleInput(String cron, String zone, String fixedRate) {

    static final int MAX_LENGTH = 120;

    private static final List<String> FIELDS =
            List.of("second", "minute", "hour", "day of month", "month", "day of week");

    private static final List<String> VALUES =
            List.of("0-59", "0-59", "0-23", "1-31", "1-12 or JAN-DEC", "0-7 or SUN-SAT");

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
                        "cron", "Invalid cron expression '" + this.cron + "': " + problem(this.cron, ex));
            }
            Schedule.Cron schedule = new Schedule.Cron(this.cron, zoneId());
            if (schedule.neverFires()) {
                throw ManagementException.badInput(
                        "cron", "Cron expression '" + this.cron + "' never fires: no date matches it");
            }
            return schedule;
        }
        if (this.zone != null) {
            throw ManagementException.badInput("zone", "A zone goes with a cron, not with a fixedRate");
        }
        checkLength("fixedRate", this.fixedRate);
        Duration rate;
        try {
            rate = DurationFormatterUtils.detectAndParse(this.fixedRate);
        } catch (IllegalArgumentException ex) {
            throw ManagementException.badInput(
                    "fixedRate", "Invalid fixedRate '" + this.fixedRate + "': use a duration such as 30s or PT30S");
        }
        if (rate.compareTo(Duration.ofSeconds(1)) < 0 || rate.compareTo(JobScheduler.MAX_RATE) > 0) {
            throw ManagementException.badInput(
                    "fixedRate",
                    "fixedRate must be at least 1s and at most " + JobScheduler.MAX_RATE.toDays() + "d, was "
                            + this.fixedRate);
        }
        return new Schedule.FixedRate(rate, Duration.ZERO);
    }

    // Spring names neither the field nor, for a bad name, the reason; so each field is parsed
    // alone, with '*' in the others, to find the first one at fault.
    private static String problem(String cron, IllegalArgumentException whole) {
        String[] parts = StringUtils.tokenizeToStringArray(cron, " ");
        if (parts.length != FIELDS.size()) {
            return whole.getMessage();
        }
        for (int i = 0; i < parts.length; i++) {
            String[] alone = new String[parts.length];
            Arrays.fill(alone, "*");
            alone[i] = parts[i];
            try {
                CronExpression.parse(String.join(" ", alone));
            } catch (IllegalArgumentException ex) {
                return FIELDS.get(i) + ": '" + parts[i] + "' is not a valid value" + why(ex, VALUES.get(i));
            }
        }
        return whole.getMessage();
    }

    private static String why(IllegalArgumentException ex, String values) {
        Throwable cause = ex;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof NumberFormatException || cause instanceof DateTimeException) {
            return " (" + values + ")";
        }
        String message = cause.getMessage();
        return StringUtils.hasText(message) ? ": " + StringUtils.uncapitalize(message) : " (" + values + ")";
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
