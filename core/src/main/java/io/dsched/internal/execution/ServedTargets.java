package io.dsched.internal.execution;

import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The targets a node runs, or one of its worker pools runs: those it declares, in a group it serves
 * (or that the pool runs). A view that follows the declared targets, so that a runtime job created
 * later is run where its handler's group is served.
 */
final class ServedTargets implements JobTargets {

    private final JobTargets declared;

    private final Predicate<String> groups;

    ServedTargets(JobTargets declared, Predicate<String> groups) {
        this.declared = declared;
        this.groups = groups;
    }

    @Override
    public Optional<JobTarget> find(String name) {
        return this.declared.find(name).filter((target) -> this.groups.test(target.group()));
    }

    @Override
    public Set<String> names() {
        Set<String> names = new LinkedHashSet<>();
        for (String name : this.declared.names()) {
            if (find(name).isPresent()) {
                names.add(name);
            }
        }
        return names;
    }
}
