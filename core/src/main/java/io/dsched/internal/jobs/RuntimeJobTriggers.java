package io.dsched.internal.jobs;

import io.dsched.engine.DschedQuartzJob;
import io.dsched.internal.definition.JobDefinition;
import io.dsched.internal.engine.Triggers;
import io.dsched.internal.execution.NodeGroups;
import io.dsched.internal.handler.HandlerDefinition;
import io.dsched.internal.handler.HandlerRegistry;
import io.dsched.internal.retry.RetryPolicy;
import io.dsched.jobs.RuntimeJobRecord;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.quartz.JobBuilder;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.TriggerKey;
import org.quartz.impl.matchers.GroupMatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The Quartz side of the runtime jobs: each job's Quartz job and trigger in the group {@value RuntimeJobs#GROUP}. */
final class RuntimeJobTriggers {

    private static final Logger logger = LoggerFactory.getLogger(RuntimeJobs.class);

    private static final RetryPolicy NO_RETRY =
            new RetryPolicy(1, Duration.ZERO, 1, Duration.ZERO, Duration.ZERO, List.of(), List.of());

    private final HandlerRegistry handlers;

    private final Clock clock;

    RuntimeJobTriggers(HandlerRegistry handlers, Clock clock) {
        this.handlers = handlers;
        this.clock = clock;
    }

    /** Writes a job's Quartz job and trigger, replacing any earlier ones. */
    void schedule(Scheduler scheduler, RuntimeJobRecord job) throws SchedulerException {
        JobDefinition definition = definition(job);
        scheduler.addJob(
                JobBuilder.newJob(DschedQuartzJob.class)
                        .withIdentity(job.name(), RuntimeJobs.GROUP)
                        .withDescription("runtime job of handler " + job.handler())
                        .storeDurably()
                        .build(),
                true);
        TriggerKey key = TriggerKey.triggerKey(job.name(), RuntimeJobs.GROUP);
        org.quartz.Trigger trigger = Triggers.forJob(definition, definition.schedule(), this.clock, RuntimeJobs.GROUP);
        if (scheduler.checkExists(key)) {
            scheduler.rescheduleJob(key, trigger);
        } else {
            scheduler.scheduleJob(trigger);
        }
    }

    /** Gives every job its trigger, and removes the triggers of jobs that are not among them. */
    void synchronize(Scheduler scheduler, Map<String, RuntimeJobRecord> jobs) throws SchedulerException {
        for (RuntimeJobRecord job : jobs.values()) {
            if (!scheduler.checkExists(TriggerKey.triggerKey(job.name(), RuntimeJobs.GROUP))) {
                logger.info("Restoring the trigger of runtime job '{}'", job.name());
                schedule(scheduler, job);
            }
        }
        for (JobKey key : scheduler.getJobKeys(GroupMatcher.jobGroupEquals(RuntimeJobs.GROUP))) {
            if (!jobs.containsKey(key.getName())) {
                logger.info("Removing the trigger of deleted runtime job '{}'", key.getName());
                scheduler.deleteJob(key);
            }
        }
    }

    JobDefinition definition(RuntimeJobRecord job) {
        Optional<HandlerDefinition> handler = this.handlers.handler(job.handler());
        return new JobDefinition(
                job.name(),
                job.schedule(),
                job.misfire(),
                handler.map(HandlerDefinition::group).orElse(NodeGroups.DEFAULT),
                handler.map(HandlerDefinition::retry).orElse(NO_RETRY),
                handler.map(HandlerDefinition::timeout).orElse(null),
                null,
                null,
                null,
                null,
                "runtime job " + job.name(),
                (context) -> {
                    throw new IllegalStateException("Runtime jobs run through their handler");
                });
    }
}
