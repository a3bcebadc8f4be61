package io.dsched.internal.jobs;

import io.dsched.definition.Schedule;
import io.dsched.jobs.JobScheduler;

/** The schedules a job may be given at run time. */
final class ScheduleRules {

    private ScheduleRules() {}

    static void validate(Schedule schedule) {
        if (schedule instanceof Schedule.Cron cron) {
            boolean never;
            try {
                never = cron.neverFires();
            } catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException(
                        "Invalid cron expression '" + cron.expression() + "': " + ex.getMessage(), ex);
            }
            if (never) {
                throw new IllegalArgumentException(
                        "Cron expression '" + cron.expression() + "' never fires: no date matches it");
            }
        }
        if (schedule instanceof Schedule.FixedRate rate
                && (rate.interval().isZero() || rate.interval().isNegative())) {
            throw new IllegalArgumentException("fixedRate must be longer than zero, was " + rate.interval());
        }
        if (schedule instanceof Schedule.FixedRate rate && rate.interval().compareTo(JobScheduler.MAX_RATE) > 0) {
            throw new IllegalArgumentException(
                    "fixedRate must be at most " + JobScheduler.MAX_RATE.toDays() + "d, was " + rate.interval());
        }
        if (schedule instanceof Schedule.FixedDelay delay
                && (delay.delay().isZero() || delay.delay().isNegative())) {
            throw new IllegalArgumentException("fixedDelay must be longer than zero, was " + delay.delay());
        }
    }

    /** A job defined at run time fires on a cron or a fixed rate. */
    static void validateRuntime(Schedule schedule) {
        if (schedule instanceof Schedule.FixedDelay) {
            throw new IllegalArgumentException("A job defined at run time fires on a cron or a fixed rate");
        }
        validate(schedule);
    }
}
