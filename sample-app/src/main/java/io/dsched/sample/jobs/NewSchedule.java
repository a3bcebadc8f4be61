package io.dsched.sample.jobs;

/**
 * The body of a request that reschedules a job.
 *
 * @param cron the new Spring cron expression, evaluated in the zone of the node that writes it
 */
public record NewSchedule(String cron) {}
