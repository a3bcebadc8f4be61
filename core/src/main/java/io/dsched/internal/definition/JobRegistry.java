package io.dsched.internal.definition;

import io.dsched.definition.InvalidJobDefinitionException;
import io.dsched.internal.execution.JobTarget;
import io.dsched.internal.execution.JobTargets;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The scheduled jobs this node declares, by name.
 */
public final class JobRegistry implements JobTargets {

    private final Map<String, JobDefinition> jobs = Collections.synchronizedMap(new LinkedHashMap<>());

    /**
     * Adds a job.
     * @param definition the job
     * @throws InvalidJobDefinitionException if another job has the same name
     */
    public void register(JobDefinition definition) {
        JobDefinition existing = this.jobs.putIfAbsent(definition.name(), definition);
        if (existing != null) {
            throw new InvalidJobDefinitionException(
                    definition.source(),
                    "job name '" + definition.name() + "' is already used by " + existing.source()
                            + "; give one of them a distinct name()");
        }
    }

    /**
     * Looks a job up.
     * @param name the job's name
     * @return the job, or empty if this node does not declare it
     */
    public Optional<JobDefinition> definition(String name) {
        return Optional.ofNullable(this.jobs.get(name));
    }

    /**
     * Returns every job this node declares.
     * @return the jobs in declaration order
     */
    public Collection<JobDefinition> all() {
        synchronized (this.jobs) {
            return java.util.List.copyOf(this.jobs.values());
        }
    }

    @Override
    public Optional<JobTarget> find(String name) {
        return definition(name).map(JobRegistry::target);
    }

    @Override
    public Set<String> names() {
        synchronized (this.jobs) {
            return Set.copyOf(this.jobs.keySet());
        }
    }

    private static JobTarget target(JobDefinition job) {
        return new JobTarget(
                job.name(),
                job.group(),
                job.retry(),
                job.timeout(),
                true,
                job.lockAtMostFor(),
                job.lockAtLeastFor(),
                job.jitter(),
                job.shards(),
                (context, payload) -> job.invoker().invoke(context));
    }
}
