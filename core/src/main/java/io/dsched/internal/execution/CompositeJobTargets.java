package io.dsched.internal.execution;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The targets of several sources, such as scheduled jobs and one-off handlers, looked up in
 * order.
 */
public final class CompositeJobTargets implements JobTargets {

    private final List<JobTargets> sources;

    /**
     * Combines sources.
     * @param sources the sources, looked up in this order
     */
    public CompositeJobTargets(List<JobTargets> sources) {
        this.sources = List.copyOf(sources);
    }

    @Override
    public Optional<JobTarget> find(String name) {
        for (JobTargets source : this.sources) {
            Optional<JobTarget> target = source.find(name);
            if (target.isPresent()) {
                return target;
            }
        }
        return Optional.empty();
    }

    @Override
    public Optional<JobTarget> sharded(String name) {
        for (JobTargets source : this.sources) {
            // the first source that knows the name tells; the later ones are not asked
            Optional<JobTarget> found = source.find(name);
            Optional<JobTarget> target =
                    found.isPresent() ? found.filter((job) -> job.shards() != null) : source.sharded(name);
            if (found.isPresent() || target.isPresent()) {
                return target;
            }
        }
        return Optional.empty();
    }

    @Override
    public Set<String> names() {
        Set<String> names = new HashSet<>();
        this.sources.forEach((source) -> names.addAll(source.names()));
        return names;
    }
}
