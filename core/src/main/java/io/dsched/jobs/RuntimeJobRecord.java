package io.dsched.jobs;

import io.dsched.definition.MisfirePolicy;
import io.dsched.definition.Schedule;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/**
 * One row of {@code dsched_job}: a recurring job defined at run time.
 *
 * @param name the job's name
 * @param handler the handler it runs
 * @param cron its cron expression, or {@code null} for a fixed rate
 * @param zone the cron's zone, or {@code null} for the default
 * @param intervalMs its fixed rate in milliseconds, or {@code null} for a cron
 * @param params the handler's payload, as JSON
 * @param misfire its misfire policy
 * @param shards the shards of each fire, or {@code null} for a job without shards
 * @param shardParams the parameter of each shard that has one, as a JSON object by index, or
 *     {@code null} for none
 * @param createdAt when it was created
 * @param updatedAt when it was last changed
 */
@Table("dsched_job")
public record RuntimeJobRecord(
        @Id String name,
        String handler,
        String cron,
        String zone,
        Long intervalMs,
        String params,
        MisfirePolicy misfire,
        Integer shards,
        String shardParams,
        Instant createdAt,
        Instant updatedAt) {

    /**
     * Returns the job's schedule.
     * @return a cron or a fixed rate
     */
    public Schedule schedule() {
        if (this.cron != null) {
            return new Schedule.Cron(this.cron, (this.zone != null) ? ZoneId.of(this.zone) : null);
        }
        return new Schedule.FixedRate(Duration.ofMillis(this.intervalMs), Duration.ZERO);
    }
}
