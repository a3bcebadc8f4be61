package io.dsched.internal.execution;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The node groups this node serves ({@code dsched.node.groups}). Every job and handler runs in one
 * group, {@value #DEFAULT} unless it names another; only nodes that serve a group claim its
 * attempts, whichever node fired or submitted them. A fire of a job in a group this node does not
 * serve waits, due at its time, for a node that does.
 */
public final class NodeGroups {

    /** The group of a job or handler that names none, and the group a node serves by default. */
    public static final String DEFAULT = "default";

    /**
     * The group of dsched's own jobs, such as housekeeping, which every node serves: no user job
     * can name it.
     */
    public static final String ANY = "*";

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,59}");

    private final Set<String> served;

    /**
     * Creates the groups a node serves.
     * @param served the groups, at least one
     * @throws IllegalArgumentException if there is none, or one is not a valid group name
     */
    public NodeGroups(Collection<String> served) {
        if (served.isEmpty()) {
            throw new IllegalArgumentException("A node serves at least one group (dsched.node.groups)");
        }
        Set<String> groups = new LinkedHashSet<>();
        for (String group : served) {
            groups.add(validated(group)
                    .orElseThrow(() -> new IllegalArgumentException(
                            "dsched.node.groups: '" + group + "' is not a valid group name: " + rule())));
        }
        this.served = Set.copyOf(groups);
    }

    /**
     * The groups of a node that serves the {@value #DEFAULT} group alone.
     * @return the groups
     */
    public static NodeGroups defaultOnly() {
        return new NodeGroups(Set.of(DEFAULT));
    }

    /**
     * Checks a group name.
     * @param group the name
     * @return the name, or empty if it is not a valid one
     */
    public static Optional<String> validated(String group) {
        return (group != null && NAME.matcher(group).matches()) ? Optional.of(group) : Optional.empty();
    }

    /**
     * Says what makes a valid group name, for messages.
     * @return the rule
     */
    public static String rule() {
        return "1 to 60 letters, digits, '.', '_' or '-', starting with a letter or digit";
    }

    /**
     * Tells whether this node serves a group.
     * @param group the group
     * @return {@code true} if it does
     */
    public boolean serves(String group) {
        return ANY.equals(group) || this.served.contains(group);
    }

    /**
     * Returns the groups this node serves.
     * @return the groups, sorted
     */
    public Set<String> served() {
        return this.served.stream().sorted().collect(Collectors.toCollection(LinkedHashSet::new));
    }

    /**
     * Returns the targets this node runs: those it declares, in a group it serves.
     * @param declared the targets this node declares
     * @return a view of them, which follows the declared targets
     */
    public JobTargets served(JobTargets declared) {
        return new ServedTargets(declared, this::serves);
    }

    /**
     * Returns the groups that targets run in, dsched's own jobs' aside.
     * @param targets the targets
     * @return their groups, sorted
     */
    public static Set<String> of(JobTargets targets) {
        Set<String> groups = new TreeSet<>();
        for (String name : targets.names()) {
            targets.find(name)
                    .map(JobTarget::group)
                    .filter((group) -> !ANY.equals(group))
                    .ifPresent(groups::add);
        }
        return groups;
    }

    /**
     * Says why a fire of a job does not run on this node, for the history.
     * @param declared what this node declares of the job, or empty
     * @param nodeId this node
     * @return the reason its first attempt waits for another node
     */
    String whyNotHere(Optional<JobTarget> declared, String nodeId) {
        return declared.map((job) -> "waiting for a node of group '" + job.group() + "': node " + nodeId + " serves "
                        + String.join(", ", served()))
                .orElseGet(() -> ClaimsInTransaction.notDeclared(nodeId));
    }

    @Override
    public String toString() {
        return String.join(",", served());
    }
}
