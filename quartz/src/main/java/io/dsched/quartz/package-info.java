/**
 * dsched's Quartz clustering extension, for any clustered Quartz application: a JDBC job store that
 * acquires, fires and completes triggers without Quartz's cluster-wide lock
 * ({@link io.dsched.quartz.SkipLockedJobStore}), the release of acquired triggers on shutdown, and a
 * cron trigger on Spring's cron expressions ({@link io.dsched.quartz.SpringCronTrigger}). It depends
 * on Quartz and Spring's {@code CronExpression} alone.
 */
package io.dsched.quartz;
