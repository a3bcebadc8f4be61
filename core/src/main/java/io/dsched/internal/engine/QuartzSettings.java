package io.dsched.internal.engine;

import io.dsched.internal.store.DatabasePlatform;
import io.dsched.quartz.ClusterJobStore;
import io.dsched.quartz.SkipLockedJobStore;
import io.dsched.quartz.SpringCronTriggerPersistenceDelegate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import javax.sql.DataSource;
import org.quartz.utils.DBConnectionManager;

/**
 * The Quartz configuration of one dsched node, chosen to avoid Quartz's known traps in a
 * cluster.
 *
 * <ul>
 *   <li>the driver delegate that matches the database (PostgreSQL needs its own for binary
 *       columns);
 *   <li>on databases with {@code SKIP LOCKED}, the {@link SkipLockedJobStore}, which acquires,
 *       fires and completes triggers without Quartz's cluster-wide lock; otherwise the stock
 *       store with triggers acquired under that lock, so that a batch acquisition can never hand
 *       one fire to two nodes; either governed by dsched's membership where Quartz would trust
 *       the node's clock ({@link ClusterJobStore});
 *   <li>a short check-in interval, so that a dead node's work is recovered quickly;
 *   <li>job data kept as strings, so that nodes of different versions can read each other's
 *       rows;
 *   <li>the Spring cron trigger registered with the store;
 *   <li>a {@link TimedWorkerPool}, which starts each fire on the dot, and with the skip-locked store
 *       triggers fired ahead of their time if asked ({@link #fireAhead});
 *   <li>each node's connections registered under a name of its own, so that several nodes in
 *       one JVM (as in tests) never share a pool.
 * </ul>
 */
public final class QuartzSettings {

    /** Prefix of dsched's Quartz tables, kept apart from any Quartz tables of the application. */
    public static final String TABLE_PREFIX = "DSCHED_QRTZ_";

    private QuartzSettings() {}

    /**
     * Builds the Quartz properties of a node and registers its connection provider.
     * @param dataSource dsched's DataSource
     * @param platform its database
     * @param clusterName the scheduler name shared by the cluster
     * @param nodeId this node's id
     * @param threads how many jobs the node runs at once
     * @param checkinInterval how often the node checks in
     * @param idleWait longest idle time between looks for due triggers
     * @param misfireThreshold how late a fire may be before it counts as misfired
     * @param skipLocked whether to acquire triggers with {@code SKIP LOCKED} instead of under the
     *     cluster-wide lock; ignored on H2
     * @return the properties for a Quartz {@code StdSchedulerFactory}
     */
    public static Properties forNode(
            DataSource dataSource,
            DatabasePlatform platform,
            String clusterName,
            String nodeId,
            int threads,
            Duration checkinInterval,
            Duration idleWait,
            Duration misfireThreshold,
            boolean skipLocked) {
        // one name per cluster and node, so that a restarted context replaces its provider
        // instead of adding one more to Quartz's global registry
        String connectionName = "dsched." + clusterName + "." + nodeId;
        DBConnectionManager connections = DBConnectionManager.getInstance();
        synchronized (connections) {
            connections.addConnectionProvider(connectionName, new DataSourceConnectionProvider(dataSource));
        }
        Properties properties = new Properties();
        properties.setProperty("org.quartz.scheduler.instanceName", clusterName);
        properties.setProperty("org.quartz.scheduler.instanceId", nodeId);
        properties.setProperty("org.quartz.scheduler.skipUpdateCheck", "true");
        properties.setProperty(
                "org.quartz.scheduler.idleWaitTime", String.valueOf(Math.max(1000, idleWait.toMillis())));
        properties.setProperty("org.quartz.scheduler.batchTriggerAcquisitionMaxCount", String.valueOf(threads));
        properties.setProperty("org.quartz.threadPool.class", TimedWorkerPool.class.getName());
        properties.setProperty("org.quartz.threadPool.threadCount", String.valueOf(threads));
        properties.setProperty("org.quartz.threadPool.capacity", String.valueOf(threads));
        properties.setProperty("org.quartz.threadPool.threadNamePrefix", "dsched-worker");
        boolean rowByRow = skipLocked && platform.dialect().skipsLocked();
        properties.setProperty(
                "org.quartz.jobStore.class", (rowByRow ? SkipLockedJobStore.class : ClusterJobStore.class).getName());
        properties.setProperty("org.quartz.jobStore.dataSource", connectionName);
        properties.setProperty(
                "org.quartz.jobStore.driverDelegateClass", platform.dialect().quartzDelegate(rowByRow));
        properties.setProperty(
                "org.quartz.jobStore.driverDelegateInitString",
                "triggerPersistenceDelegateClasses=" + SpringCronTriggerPersistenceDelegate.class.getName());
        properties.setProperty("org.quartz.jobStore.tablePrefix", TABLE_PREFIX);
        properties.setProperty("org.quartz.jobStore.isClustered", "true");
        properties.setProperty(
                "org.quartz.jobStore.clusterCheckinInterval", String.valueOf(checkinInterval.toMillis()));
        properties.setProperty("org.quartz.jobStore.misfireThreshold", String.valueOf(misfireThreshold.toMillis()));
        properties.setProperty("org.quartz.jobStore.acquireTriggersWithinLock", "true");
        properties.setProperty("org.quartz.jobStore.useProperties", "true");
        return properties;
    }

    /**
     * Has a node's Quartz workers run on virtual threads (Java 21 and later).
     * @param properties the node's Quartz properties, from {@link #forNode}
     * @param workerThreads the kind of thread
     */
    public static void workerThreads(Properties properties, WorkerThreads workerThreads) {
        properties.setProperty(
                "org.quartz.threadPool.virtualThreads", String.valueOf(workerThreads == WorkerThreads.VIRTUAL));
    }

    /**
     * Gives node groups workers of their own in a node's {@link TimedWorkerPool}, besides the
     * shared ones: the pool, and each acquisition of triggers, grows by their number.
     * @param properties the node's Quartz properties, from {@link #forNode}
     * @param groupThreads the threads of each group with workers of its own
     */
    public static void groupThreads(Properties properties, Map<String, Integer> groupThreads) {
        if (groupThreads.isEmpty()) {
            return;
        }
        int extra = groupThreads.values().stream().mapToInt(Integer::intValue).sum();
        properties.setProperty("org.quartz.threadPool.groupThreads", WorkerLanes.spec(groupThreads));
        for (String key :
                List.of("org.quartz.threadPool.capacity", "org.quartz.scheduler.batchTriggerAcquisitionMaxCount")) {
            properties.setProperty(key, String.valueOf(Integer.parseInt(properties.getProperty(key)) + extra));
        }
    }

    /**
     * Has a node's store fire triggers ahead of their time, when it is the {@link SkipLockedJobStore}:
     * each trigger is fired and claimed at least the lead before it is due, and its fire waits in
     * the node's {@link TimedWorkerPool} for its time.
     * @param properties the node's Quartz properties, from {@link #forNode}
     * @param lead how long ahead; zero leaves fires at their time
     * @param most the most fires the node holds at once, waiting for their time or running
     * @return whether the store fires ahead
     */
    public static boolean fireAhead(Properties properties, Duration lead, int most) {
        if (lead.isZero()
                || !SkipLockedJobStore.class.getName().equals(properties.getProperty("org.quartz.jobStore.class"))) {
            return false;
        }
        // all the workers, the shared ones and those of groups with workers of their own
        int threads = Integer.parseInt(properties.getProperty("org.quartz.threadPool.capacity"));
        int capacity = Math.max(threads, most);
        properties.setProperty("org.quartz.jobStore.fireAheadMillis", String.valueOf(lead.toMillis()));
        properties.setProperty("org.quartz.threadPool.capacity", String.valueOf(capacity));
        properties.setProperty("org.quartz.scheduler.batchTriggerAcquisitionMaxCount", String.valueOf(capacity));
        return true;
    }
}
