package io.dsched.internal.jobs;

import io.dsched.internal.definition.JobDefinition;
import io.dsched.internal.definition.JobRegistry;
import io.dsched.internal.execution.Sharding;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The shards each scheduled job's definition splits its fires into: a declared job's, from its
 * annotation, or those a runtime job was created with. What is set at run time through the
 * endpoint ({@code dsched_job_shards}) stands in for them, from the fires written since.
 */
public final class JobShards {

    private final JobRegistry declared;

    private final RuntimeJobs runtime;

    /**
     * Creates the lookup.
     * @param declared the jobs this node declares
     * @param runtime the jobs defined at run time
     */
    public JobShards(JobRegistry declared, RuntimeJobs runtime) {
        this.declared = declared;
        this.runtime = runtime;
    }

    /**
     * Returns the shards of a job's definition.
     * @param job the job
     * @return its shards (a broadcast job's included), or empty if it runs whole or is unknown
     */
    public Optional<Sharding> of(String job) {
        Optional<JobDefinition> definition = this.declared.definition(job);
        return definition.isPresent() ? definition.map(JobDefinition::shards) : this.runtime.shards(job);
    }

    /**
     * Returns the shard count of each sharded job's definition, declared or defined at run time;
     * broadcast jobs, whose fires have as many shards as live nodes, are not among them.
     * @return the counts by job
     */
    public Map<String, Integer> counts() {
        Map<String, Integer> counts = new TreeMap<>();
        for (JobDefinition job : this.declared.all()) {
            if (job.shards() != null && !job.shards().broadcast()) {
                counts.put(job.name(), job.shards().count());
            }
        }
        this.runtime.sharded().forEach((name, shards) -> counts.put(name, shards.count()));
        return counts;
    }
}
