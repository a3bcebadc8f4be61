package io.dsched.internal.health;

import io.dsched.internal.cluster.ClockSkew;
import io.dsched.internal.cluster.GroupLiveness;
import io.dsched.internal.cluster.NodeSighting;
import io.dsched.internal.cluster.NodeTable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * The health of this dsched node: UP while its scheduler runs, the database answers and the node
 * has checked in within the node timeout, so that the cluster counts it as alive; DOWN otherwise,
 * with the reason. Details: the node, the live nodes of the cluster, the attempts running here,
 * the open dead letters, how it hears of the attempts other nodes submit ({@code notices}: {@code
 * notices}; {@code polling}, {@code astray}, {@code not_yet} or {@code off} while it finds them by
 * polling alone, which delays them by up to a poll but loses none), and the offset of the node's
 * clock from the database's. A node whose clock is beyond {@code dsched.cluster.max-clock-skew}
 * stays UP (it is alive, and a restart would not mend its clock) with {@code clockSkewed} and the
 * reason: it takes no fires until its clock is back within bounds. {@code groups} gives the live
 * nodes of each node group; a group no live node serves is listed in {@code stalledGroups}, and its
 * attempts wait: the node stays UP, for no restart of it would serve the group.
 */
public final class DschedHealthIndicator extends AbstractHealthIndicator {

    private final String nodeId;

    private final BooleanSupplier running;

    private final NodeTable nodes;

    private final Duration nodeTimeout;

    private final IntSupplier runningAttempts;

    private final LongSupplier openDeadLetters;

    private final ClockSkew skew;

    private final Supplier<String> notices;

    private final Function<List<NodeSighting>, List<GroupLiveness.Group>> groups;

    /**
     * Creates the indicator.
     * @param nodeId this node
     * @param running whether this node's scheduler runs
     * @param nodes the cluster's node table
     * @param nodeTimeout how long a node may be silent before the cluster counts it as dead
     * @param runningAttempts how many attempts run on this node
     * @param openDeadLetters counts the open dead letters
     * @param skew the node's clock measured against the database's
     * @param notices how the node hears of the attempts other nodes submit
     * @param groups reads the node groups and which of the nodes read serve each
     */
    public DschedHealthIndicator(
            String nodeId,
            BooleanSupplier running,
            NodeTable nodes,
            Duration nodeTimeout,
            IntSupplier runningAttempts,
            LongSupplier openDeadLetters,
            ClockSkew skew,
            Supplier<String> notices,
            Function<List<NodeSighting>, List<GroupLiveness.Group>> groups) {
        super("dsched health check failed");
        this.nodeId = nodeId;
        this.running = running;
        this.nodes = nodes;
        this.nodeTimeout = nodeTimeout;
        this.runningAttempts = runningAttempts;
        this.openDeadLetters = openDeadLetters;
        this.skew = skew;
        this.notices = notices;
        this.groups = groups;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        builder.withDetail("node", this.nodeId).withDetail("notices", this.notices.get());
        reportClock(builder);
        // an exception here (the database does not answer) makes the indicator DOWN with its message
        List<NodeSighting> sightings = this.nodes.sightings();
        long live = sightings.stream()
                .filter((node) -> node.isAlive(this.nodeTimeout))
                .count();
        builder.withDetail("liveNodes", live)
                .withDetail("runningAttempts", this.runningAttempts.getAsInt())
                .withDetail("openDeadLetters", this.openDeadLetters.getAsLong());
        reportGroups(builder, sightings);
        Optional<NodeSighting> self = sightings.stream()
                .filter((node) -> node.nodeId().equals(this.nodeId))
                .findFirst();
        if (!this.running.getAsBoolean()) {
            builder.down().withDetail("reason", "the scheduler of this node is not running");
        } else if (self.isEmpty()) {
            builder.down().withDetail("reason", "this node has not checked in yet");
        } else if (!self.get().isAlive(this.nodeTimeout)) {
            builder.down()
                    .withDetail(
                            "reason",
                            "this node last checked in " + self.get().silence().toSeconds()
                                    + " s ago, more than the node timeout");
        } else {
            builder.up().withDetail("lastCheckIn", self.get().lastSeen());
        }
    }

    private void reportGroups(Health.Builder builder, List<NodeSighting> sightings) {
        Map<String, Integer> liveNodes = new LinkedHashMap<>();
        List<String> stalled = new ArrayList<>();
        for (GroupLiveness.Group group : this.groups.apply(sightings)) {
            liveNodes.put(group.name(), group.liveNodes().size());
            if (group.stalled()) {
                stalled.add(group.name());
            }
        }
        builder.withDetail("groups", liveNodes);
        if (!stalled.isEmpty()) {
            builder.withDetail("stalledGroups", stalled);
        }
    }

    private void reportClock(Health.Builder builder) {
        if (!this.skew.isMeasured()) {
            return;
        }
        Duration offset = this.skew.offset();
        builder.withDetail("clockOffsetSeconds", offset.toMillis() / 1000.0)
                .withDetail("clockSkewed", this.skew.isSkewed());
        if (this.skew.isSkewed()) {
            builder.withDetail(
                    "clockSkew",
                    "this node's clock is " + Math.abs(offset.toMillis()) / 1000.0 + " s "
                            + (offset.isNegative() ? "behind" : "ahead of")
                            + " the database's, beyond dsched.cluster.max-clock-skew (" + this.skew.maxSkew()
                            + "); it takes no fires until its clock is back within bounds");
        }
    }
}
