package io.dsched.sample.jobs;

/**
 * A scheduled job as the REST API shows it.
 *
 * @param name the job's name
 * @param paused whether it is paused
 * @param schedule the schedule in force, declared or set at run time, such as
 *     {@code cron(0 0 2 * * *, Europe/Berlin)}
 */
public record JobView(String name, boolean paused, String schedule) {}
