package io.dsched.internal.annotation;

import io.dsched.annotation.DistributedScheduled;
import io.dsched.definition.InvalidJobDefinitionException;
import io.dsched.definition.Schedule;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.springframework.scheduling.support.CronExpression;
import org.springframework.util.StringUtils;

/**
 * Reads the schedule of a {@link DistributedScheduled} method: exactly one of a cron (with its
 * zone), a fixed rate and a fixed delay, failing with a message that names the declaration.
 */
final class DeclaredSchedules {

    private DeclaredSchedules() {}

    static Schedule schedule(DeclarationValues values, DistributedScheduled annotation, String cron, String source) {
        String fixedRate = values.resolve(annotation.fixedRate());
        String fixedDelay = values.resolve(annotation.fixedDelay());
        List<String> given = new ArrayList<>();
        if (StringUtils.hasText(cron)) {
            given.add("cron");
        }
        if (StringUtils.hasText(fixedRate)) {
            given.add("fixedRate");
        }
        if (StringUtils.hasText(fixedDelay)) {
            given.add("fixedDelay");
        }
        if (given.size() != 1) {
            throw new InvalidJobDefinitionException(
                    source,
                    "exactly one of cron, fixedRate and fixedDelay must be set, but "
                            + (given.isEmpty() ? "none is" : String.join(" and ", given) + " are"));
        }
        String zone = values.resolve(annotation.zone());
        Duration initialDelay = values.duration(annotation.initialDelay(), "initialDelay", source);
        if (given.contains("cron")) {
            if (initialDelay != null) {
                throw new InvalidJobDefinitionException(source, "initialDelay is not supported with cron");
            }
            try {
                CronExpression.parse(cron);
            } catch (IllegalArgumentException ex) {
                throw new InvalidJobDefinitionException(
                        source, "invalid cron expression '" + cron + "': " + ex.getMessage());
            }
            Schedule.Cron schedule = new Schedule.Cron(cron, zone(zone, source));
            if (schedule.neverFires()) {
                throw new InvalidJobDefinitionException(
                        source, "cron expression '" + cron + "' never fires: no date matches it");
            }
            return schedule;
        }
        if (StringUtils.hasText(zone)) {
            throw new InvalidJobDefinitionException(source, "zone applies to cron only");
        }
        Duration delay = (initialDelay != null) ? initialDelay : Duration.ZERO;
        if (given.contains("fixedRate")) {
            return new Schedule.FixedRate(
                    values.positive(values.duration(fixedRate, "fixedRate", source), "fixedRate", source), delay);
        }
        return new Schedule.FixedDelay(
                values.positive(values.duration(fixedDelay, "fixedDelay", source), "fixedDelay", source), delay);
    }

    private static ZoneId zone(String zone, String source) {
        if (!StringUtils.hasText(zone)) {
            return null;
        }
        try {
            return ZoneId.of(zone);
        } catch (DateTimeException ex) {
            throw new InvalidJobDefinitionException(source, "unknown zone '" + zone + "'");
        }
    }
}
