package io.dsched.jobs;

import io.dsched.definition.MisfirePolicy;
import io.dsched.definition.Schedule;
import java.util.Map;
import java.util.Objects;

/**
 * A recurring job defined at run time: a {@code @JobHandler} fired on a schedule with fixed
 * parameters as its payload, whole or, {@linkplain #withShards split into shards}, as a job
 * declared with {@code @DistributedScheduled(shards = ...)} is.
 *
 * @param name unique name of the job
 * @param handler the handler it runs
 * @param schedule when it fires: a cron or a fixed rate
 * @param params what the handler receives on each fire, written as JSON; may be {@code null}
 * @param misfire what becomes of fires no node could start in time
 * @param shards the shards each fire is split into, from 1 to 1,000; 0 for a job that runs whole
 * @param shardParams the parameter of each shard that has one, by index, which its runs read from
 *     {@link io.dsched.execution.JobContext#shardParam()}; none for a job without shards
 */
public record RecurringJob(
        String name,
        String handler,
        Schedule schedule,
        Object params,
        MisfirePolicy misfire,
        int shards,
        Map<Integer, String> shardParams) {

    public RecurringJob {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(schedule, "schedule");
        misfire = (misfire != null) ? misfire : MisfirePolicy.RUN_ONCE;
        shardParams = (shardParams != null) ? Map.copyOf(shardParams) : Map.of();
    }

    /**
     * Creates a job that runs whole.
     * @param name unique name of the job
     * @param handler the handler it runs
     * @param schedule when it fires
     * @param params the handler's payload
     * @param misfire what becomes of fires no node could start in time
     */
    public RecurringJob(String name, String handler, Schedule schedule, Object params, MisfirePolicy misfire) {
        this(name, handler, schedule, params, misfire, 0, Map.of());
    }

    /**
     * Creates a job with the default misfire policy.
     * @param name unique name of the job
     * @param handler the handler it runs
     * @param schedule when it fires
     * @param params the handler's payload
     * @return the job
     */
    public static RecurringJob of(String name, String handler, Schedule schedule, Object params) {
        return new RecurringJob(name, handler, schedule, params, MisfirePolicy.RUN_ONCE);
    }

    /**
     * Returns this job with each fire split into shards, each an attempt of its own that any node
     * of the handler's group claims; each run gets the job's parameters and its shard's index
     * and count.
     * @param count the shards of each fire, from 1 to 1,000
     * @return the job split so
     */
    public RecurringJob withShards(int count) {
        return withShards(count, Map.of());
    }

    /**
     * Returns this job with each fire split into shards, some of which have a parameter of their
     * own, as {@code shardParams} gives a declared job's ({@code 0=Beijing}).
     * @param count the shards of each fire, from 1 to 1,000
     * @param params the parameter of each shard that has one, by index from 0
     * @return the job split so
     */
    public RecurringJob withShards(int count, Map<Integer, String> params) {
        return new RecurringJob(this.name, this.handler, this.schedule, this.params, this.misfire, count, params);
    }
}
