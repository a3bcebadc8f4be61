package io.dsched.autoconfigure;

import io.dsched.internal.store.DatabasePlatform;
import java.util.Map;
import java.util.Properties;
import org.springframework.util.Assert;

/**
 * The settings a node's engine is built from, as {@link DschedCustomizer}s see them: the node's
 * Quartz properties, derived from the {@code dsched.*} properties, with the cluster, the node and
 * the database they were derived for.
 *
 * <p>Most Quartz properties may be changed. Those that tie the node to its cluster, its tables and
 * dsched's store may not, and changing one fails with the property that decides it.
 */
public final class DschedEngineSettings {

    private static final String QUARTZ_PREFIX = "org.quartz.";

    private static final String DATA_SOURCES = "org.quartz.dataSource.";

    private static final Map<String, String> RESERVED = Map.ofEntries(
            Map.entry("org.quartz.scheduler.instanceName", "set dsched.cluster.name instead"),
            Map.entry(
                    "org.quartz.threadPool.class",
                    "dsched's pool starts each fire at its time, which a fire made ahead of it needs"),
            Map.entry("org.quartz.threadPool.capacity", "set dsched.cluster.fire-ahead-max instead"),
            Map.entry(
                    "org.quartz.threadPool.groupThreads",
                    "set dsched.node.group-threads instead: the queue's pools follow it too"),
            Map.entry(
                    "org.quartz.threadPool.virtualThreads",
                    "set spring.threads.virtual.enabled instead (it takes effect on Java 21 and later)"),
            Map.entry("org.quartz.jobStore.fireAheadMillis", "set dsched.cluster.fire-ahead instead"),
            Map.entry("org.quartz.scheduler.instanceId", "set dsched.node-id or define a NodeId bean instead"),
            Map.entry(
                    "org.quartz.jobStore.class",
                    "dsched's store keeps the cluster; choose how it acquires with dsched.cluster.skip-locked"),
            Map.entry(
                    "org.quartz.jobStore.driverDelegateClass",
                    "it follows the database and the store; set dsched.jdbc.platform if the database is misdetected"),
            Map.entry(
                    "org.quartz.jobStore.driverDelegateInitString",
                    "it registers the Spring cron trigger's persistence"),
            Map.entry(
                    "org.quartz.jobStore.dataSource",
                    "mark the DataSource dsched should use @DschedDataSource instead"),
            Map.entry(
                    "org.quartz.jobStore.tablePrefix",
                    "dsched's schema scripts create its Quartz tables under this prefix"),
            Map.entry("org.quartz.jobStore.isClustered", "every dsched node is a member of its cluster"),
            Map.entry(
                    "org.quartz.jobStore.useProperties",
                    "job data is kept as strings so that nodes of different versions read each other's rows"),
            Map.entry(
                    "org.quartz.jobStore.lockHandler.class",
                    "Quartz's lock must be the database's row lock, shared by the cluster"),
            Map.entry(
                    "org.quartz.jobStore.selectWithLockSQL",
                    "Quartz's lock must be the database's row lock, shared by the cluster"),
            Map.entry(
                    "org.quartz.jobStore.acquireTriggersWithinLock",
                    "it follows the store; choose how it acquires with dsched.cluster.skip-locked"),
            Map.entry(
                    "org.quartz.scheduler.batchTriggerAcquisitionFireAheadTimeWindow",
                    "fires would start before their time"));

    private final String clusterName;

    private final String nodeId;

    private final DatabasePlatform platform;

    private final Properties quartzProperties;

    DschedEngineSettings(String clusterName, String nodeId, DatabasePlatform platform, Properties quartzProperties) {
        this.clusterName = clusterName;
        this.nodeId = nodeId;
        this.platform = platform;
        this.quartzProperties = quartzProperties;
    }

    /**
     * Returns the name of the cluster the node is a member of.
     * @return the cluster's name
     */
    public String clusterName() {
        return this.clusterName;
    }

    /**
     * Returns the id of this node.
     * @return the node's id
     */
    public String nodeId() {
        return this.nodeId;
    }

    /**
     * Returns the database the cluster keeps its state in, for settings that depend on it.
     * @return {@code postgresql}, {@code mysql} (MySQL and MariaDB) or {@code h2}, as {@code
     *     dsched.jdbc.platform} names them
     */
    public String database() {
        return this.platform.id();
    }

    /**
     * Returns a Quartz property as it stands.
     * @param name the property's name, such as {@code org.quartz.threadPool.threadCount}
     * @return its value, or {@code null} when it is not set
     */
    public String getQuartzProperty(String name) {
        return this.quartzProperties.getProperty(name);
    }

    /**
     * Sets a Quartz property.
     * @param name the property's name, starting with {@code org.quartz.}
     * @param value its value
     * @throws IllegalArgumentException if the name is not a Quartz property's, or is one that
     *     dsched decides
     */
    public void setQuartzProperty(String name, String value) {
        Assert.isTrue(
                name != null && name.startsWith(QUARTZ_PREFIX),
                () -> "'" + name + "' is not the name of a Quartz property: they start with " + QUARTZ_PREFIX);
        Assert.notNull(value, () -> "The value of " + name + " must not be null");
        String reason = name.startsWith(DATA_SOURCES)
                ? "Quartz's tables live in dsched's DataSource; mark another one @DschedDataSource instead"
                : RESERVED.get(name);
        Assert.isTrue(reason == null, () -> "A DschedCustomizer cannot set " + name + ": " + reason);
        this.quartzProperties.setProperty(name, value);
    }

    /**
     * Returns a copy of every Quartz property as it stands.
     * @return the properties
     */
    public Properties getQuartzProperties() {
        Properties copy = new Properties();
        copy.putAll(this.quartzProperties);
        return copy;
    }
}
