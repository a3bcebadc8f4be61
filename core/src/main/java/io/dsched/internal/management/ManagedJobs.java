package io.dsched.internal.management;

import io.dsched.definition.Schedule;
import io.dsched.internal.definition.JobDefinition;
import io.dsched.internal.definition.JobRegistry;
import io.dsched.internal.engine.JobSynchronizer;
import io.dsched.internal.jobs.RuntimeJobs;
import io.dsched.jobs.RuntimeJobRecord;
import io.dsched.quartz.SpringCronTrigger;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.TriggerKey;
import org.quartz.impl.matchers.GroupMatcher;

/**
 * The scheduled jobs management knows: those this node declares that the store still holds, and
 * those defined at run time, with their triggers.
 */
public final class ManagedJobs {

    private final JobRegistry jobs;

    private final RuntimeJobs runtimeJobs;

    private final Supplier<Scheduler> quartz;

    /**
     * Creates the view.
     * @param jobs the jobs this node declares
     * @param runtimeJobs the jobs defined at run time
     * @param quartz this node's Quartz scheduler
     */
    public ManagedJobs(JobRegistry jobs, RuntimeJobs runtimeJobs, Supplier<Scheduler> quartz) {
        this.jobs = jobs;
        this.runtimeJobs = runtimeJobs;
        this.quartz = quartz;
    }

    TreeSet<String> names() {
        // a declared job that the newest deployment removed has no job in the store: gone here
        // too, on a node of an older deployment as well
        TreeSet<String> names = new TreeSet<>(this.jobs.names());
        try {
            names.retainAll(this.quartz.get().getJobKeys(GroupMatcher.jobGroupEquals(JobSynchronizer.GROUP)).stream()
                    .map(JobKey::getName)
                    .collect(Collectors.toSet()));
        } catch (SchedulerException ex) {
            throw new IllegalStateException("Could not read the jobs in the store: " + ex.getMessage(), ex);
        }
        names.addAll(this.runtimeJobs.names());
        return names;
    }

    void existing(String job) {
        if (!names().contains(job)) {
            throw ManagementException.notFound("No scheduled job named '" + job + "'");
        }
    }

    Optional<RuntimeJobRecord> runtime(String job) {
        return this.runtimeJobs.record(job);
    }

    Optional<Schedule> declaredSchedule(String job) {
        return this.jobs.definition(job).map(JobDefinition::schedule);
    }

    Trigger trigger(String name) {
        try {
            Scheduler quartz = this.quartz.get();
            Trigger declared = quartz.getTrigger(JobSynchronizer.triggerKey(name));
            return (declared != null) ? declared : quartz.getTrigger(TriggerKey.triggerKey(name, RuntimeJobs.GROUP));
        } catch (SchedulerException ex) {
            throw new IllegalStateException("Could not read the trigger of '" + name + "': " + ex.getMessage(), ex);
        }
    }

    /** The zone of a job's cron; {@code null} when it has none, or when its trigger cannot be read now. */
    String zoneOf(String job) {
        try {
            return zone(trigger(job));
        } catch (IllegalStateException ex) {
            return null;
        }
    }

    /** The zone of a job's cron trigger; {@code null} without a trigger, for a fixed rate or a default zone. */
    static String zone(Trigger trigger) {
        return (trigger instanceof SpringCronTrigger spring && spring.getZone() != null)
                ? spring.getZone().getId()
                : null;
    }
}
