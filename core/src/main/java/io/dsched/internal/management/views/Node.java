package io.dsched.internal.management.views;

import java.time.Instant;
import java.util.List;

/**
 * A node of the cluster.
 *
 * @param id its id
 * @param startedAt when it joined
 * @param lastSeen its last check-in, in database time
 * @param alive whether it checked in within the node timeout
 * @param self whether it is the node that answered
 * @param clockOffsetSeconds how far its clock ran ahead of the database's at its last heartbeat
 *     (negative when behind), or {@code null} if not measured
 * @param clockSkewed whether that offset is beyond {@code dsched.cluster.max-clock-skew}, so that
 *     the node takes no fires
 * @param groups the node groups it serves, none for a node that runs no jobs
 */
public record Node(
        String id,
        Instant startedAt,
        Instant lastSeen,
        boolean alive,
        boolean self,
        Double clockOffsetSeconds,
        boolean clockSkewed,
        List<String> groups) {}
