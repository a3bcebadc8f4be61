package io.dsched.internal.cluster;

import io.dsched.internal.execution.JobTarget;
import io.dsched.internal.store.DeploymentStore;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The nodes a broadcast job's fire runs on: the live nodes that serve the job's group and whose
 * deployment declares the job, by id, read as the fire is written.
 */
public final class BroadcastNodes implements Function<JobTarget, List<String>> {

    private final GroupLiveness liveness;

    private final DeploymentStore deployments;

    /**
     * Creates the reader.
     * @param liveness the groups and their live nodes
     * @param deployments which deployment each node started with, and its jobs
     */
    public BroadcastNodes(GroupLiveness liveness, DeploymentStore deployments) {
        this.liveness = liveness;
        this.deployments = deployments;
    }

    @Override
    public List<String> apply(JobTarget job) {
        Set<String> declaring = this.deployments.nodesDeclaring(job.name());
        return this.liveness.groups().stream()
                .filter((group) -> group.name().equals(job.group()))
                .flatMap((group) -> group.liveNodes().stream())
                .filter(declaring::contains)
                .sorted()
                .toList();
    }
}
