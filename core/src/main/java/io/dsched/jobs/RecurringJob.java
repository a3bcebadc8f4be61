package io.dsched.jobs;

import io.dsched.definition.MisfirePolicy;
import io.dsched.definition.Schedule;
import java.util.Objects;

/**
 * A recurring job defined at run time: a {@code @JobHandler} fired on a schedule with fixed
 * parameters as its payload.
 *
 * @param name unique name of the job
 * @param handler the handler it runs
 * @param schedule when it fires: a cron or a fixed rate
 * @param params what the handler receives on each fire, written as JSON; may be {@code null}
 * @param misfire what becomes of fires no node could start in time
 */
public record RecurringJob(String name, String handler, Schedule schedule, Object params, MisfirePolicy misfire) {

    public RecurringJob {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(schedule, "schedule");
        misfire = (misfire != null) ? misfire : MisfirePolicy.RUN_ONCE;
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
}
