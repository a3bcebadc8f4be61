package io.dsched.internal.management.views;

import java.time.Instant;
import java.util.List;

/**
 * The next fire times of a cron expression.
 *
 * @param cron the expression
 * @param zone the zone it is read in
 * @param next its next five fire times
 */
public record SchedulePreview(String cron, String zone, List<Instant> next) {}
