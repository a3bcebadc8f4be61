package io.dsched.engine;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.quartz.JobPersistenceException;
import org.quartz.impl.jdbcjobstore.JobStoreTX;
import org.quartz.impl.jdbcjobstore.SchedulerStateRecord;
import org.quartz.spi.OperableTrigger;

/**
 * Quartz's clustered JDBC store, governed by dsched's membership ({@link NodeStanding}) where
 * Quartz would trust the node's clock.
 *
 * <ul>
 *   <li>A node whose clock is too far from the database's acquires no triggers and handles no
 *       misfires: Quartz compares fire times with the node's clock, so it would fire early or late
 *       and judge fires misfired that are not. The other nodes take its fires.
 *   <li>A node is failed, and its fires recovered, when dsched's membership says it is dead, not
 *       when its check-in time, written with its own clock, looks old by this node's clock: stock
 *       Quartz declares a live node dead past about 12 s of skew and recovers its running fires.
 *       Quartz's own finding of this node's earlier process (on the first check-in) still counts.
 * </ul>
 *
 * <p>A store whose node registered no standing behaves as Quartz's.
 */
public class DschedJobStore extends JobStoreTX {

    /** The standing of each node, by scheduler name and node. */
    private static final Map<String, NodeStanding> STANDINGS = new ConcurrentHashMap<>();

    /**
     * Governs the store of a node by its standing in the cluster.
     * @param schedulerName the cluster's scheduler name
     * @param instanceId the node
     * @param standing the node's standing
     */
    static void governBy(String schedulerName, String instanceId, NodeStanding standing) {
        STANDINGS.put(schedulerName + '\u0000' + instanceId, standing);
    }

    /**
     * Stops governing the store of a node.
     * @param schedulerName the cluster's scheduler name
     * @param instanceId the node
     * @param standing the standing registered, which a newer registration may have replaced
     */
    static void stopGoverning(String schedulerName, String instanceId, NodeStanding standing) {
        STANDINGS.remove(schedulerName + '\u0000' + instanceId, standing);
    }

    private NodeStanding standing() {
        return STANDINGS.get(getInstanceName() + '\u0000' + getInstanceId());
    }

    /**
     * Whether this node may acquire fires now.
     * @return {@code false} while its clock is too far from the database's
     */
    protected boolean takesFires() {
        NodeStanding standing = standing();
        return standing == null || standing.takesFires();
    }

    @Override
    public List<OperableTrigger> acquireNextTriggers(long noLaterThan, int maxCount, long timeWindow)
            throws JobPersistenceException {
        if (!takesFires()) {
            return List.of();
        }
        return super.acquireNextTriggers(noLaterThan, maxCount, timeWindow);
    }

    @Override
    protected RecoverMisfiredJobsResult doRecoverMisfires() throws JobPersistenceException {
        if (!takesFires()) {
            return RecoverMisfiredJobsResult.NO_OP;
        }
        return super.doRecoverMisfires();
    }

    @Override
    protected List<SchedulerStateRecord> findFailedInstances(Connection conn) throws JobPersistenceException {
        List<SchedulerStateRecord> byQuartz = super.findFailedInstances(conn);
        NodeStanding standing = standing();
        if (standing == null) {
            return byQuartz;
        }
        Optional<Set<String>> live = standing.liveNodes();
        List<SchedulerStateRecord> failed = new ArrayList<>();
        for (SchedulerStateRecord record : byQuartz) {
            String node = record.getSchedulerInstanceId();
            // this node's own earlier process, found on the first check-in
            if (node.equals(getInstanceId()) || (live.isPresent() && !live.get().contains(node))) {
                failed.add(record);
            }
        }
        if (live.isPresent()) {
            try {
                for (SchedulerStateRecord record : getDelegate().selectSchedulerStateRecords(conn, null)) {
                    String node = record.getSchedulerInstanceId();
                    if (!node.equals(getInstanceId())
                            && !live.get().contains(node)
                            && failed.stream().noneMatch((known) -> known.getSchedulerInstanceId()
                                    .equals(node))) {
                        failed.add(record);
                    }
                }
            } catch (SQLException ex) {
                throw new JobPersistenceException("Couldn't read the nodes' check-ins: " + ex.getMessage(), ex);
            }
        }
        return failed;
    }
}
