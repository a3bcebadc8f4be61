package io.dsched.definition;

import java.time.Duration;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Objects;
import org.springframework.scheduling.support.CronExpression;

/**
 * When a job fires: a Spring cron expression in a zone, a fixed rate, or a fixed delay.
 */
public sealed interface Schedule permits Schedule.Cron, Schedule.FixedRate, Schedule.FixedDelay {

    /**
     * A canonical, human-readable form, such as {@code cron(0 0 * * * *, Europe/Berlin)}; two
     * schedules that fire alike have the same description.
     */
    String describe();

    /**
     * Fires at the times of a Spring cron expression evaluated in a time zone.
     *
     * @param expression the Spring cron expression
     * @param zone the zone, or {@code null} for the default zone of the node that writes the
     *     trigger; the description then does not name a zone, so that nodes in different zones
     *     agree on the definition
     */
    record Cron(String expression, ZoneId zone) implements Schedule {

        public Cron {
            Objects.requireNonNull(expression, "expression");
        }

        /**
         * Returns the zone to evaluate the expression in on this node.
         * @return the zone
         */
        public ZoneId effectiveZone() {
            return (this.zone != null) ? this.zone : ZoneId.systemDefault();
        }

        /**
         * Returns whether the expression matches no time at all, such as {@code 0 0 0 30 2 *}
         * (the 30th of February): such a schedule is refused rather than stored as a job that waits
         * for ever. A Spring cron has no year, so one that matches once matches again.
         * @return whether it never fires
         * @throws IllegalArgumentException if the expression is invalid
         */
        public boolean neverFires() {
            return CronExpression.parse(this.expression).next(ZonedDateTime.now(effectiveZone())) == null;
        }

        @Override
        public String describe() {
            return "cron(" + this.expression + ", " + ((this.zone != null) ? this.zone.getId() : "default zone") + ")";
        }
    }

    /** Fires every {@code interval}, measured from start to start. */
    record FixedRate(Duration interval, Duration initialDelay) implements Schedule {

        @Override
        public String describe() {
            return "fixedRate(" + this.interval + ", initialDelay " + this.initialDelay + ")";
        }
    }

    /** Fires {@code delay} after the previous run ended. */
    record FixedDelay(Duration delay, Duration initialDelay) implements Schedule {

        @Override
        public String describe() {
            return "fixedDelay(" + this.delay + ", initialDelay " + this.initialDelay + ")";
        }
    }
}
