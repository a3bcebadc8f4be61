package io.dsched.internal.execution;

import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The targets a node runs: those it declares, in a group it serves. A view that follows the
 * declared targets, so that a runtime job created later is run where its handler's group is served.
 */
final class ServedTargets implements JobTargets {

    private final JobTargets declared;

    private final NodeGroups groups;

    ServedTargets(JobTargets declared, NodeGroups groups) {
        this.declared = declared;
        this.groups = groups;
    }

    @Override
    public Optional<JobTarget> find(String name) {
        return this.declared.find(name).filter((target) -> this.groups.serves(target.group()));
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
