package io.dsched.autoconfigure;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.sql.init.DatabaseInitializationMode;

/**
 * Configuration properties of dsched, under the prefix {@code dsched}.
 */
@ConfigurationProperties("dsched")
public class DschedProperties {

    /** Whether to run distributed scheduled jobs on this node. */
    private boolean enabled = true;

    /**
     * Identity of this node in the cluster; must be unique among running nodes. Defaults to the host
     * name followed by a random suffix.
     */
    private String nodeId;

    /** Number of threads that run jobs on this node. */
    private int threads = 10;

    private final Cluster cluster = new Cluster();

    private final Lock lock = new Lock();

    private final Jdbc jdbc = new Jdbc();

    private final Jobs jobs = new Jobs();

    private final Shutdown shutdown = new Shutdown();

    public boolean isEnabled() {
        return this.enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getNodeId() {
        return this.nodeId;
    }

    public void setNodeId(String nodeId) {
        this.nodeId = nodeId;
    }

    public int getThreads() {
        return this.threads;
    }

    public void setThreads(int threads) {
        this.threads = threads;
    }

    public Cluster getCluster() {
        return this.cluster;
    }

    public Lock getLock() {
        return this.lock;
    }

    public Jdbc getJdbc() {
        return this.jdbc;
    }

    public Jobs getJobs() {
        return this.jobs;
    }

    public Shutdown getShutdown() {
        return this.shutdown;
    }

    /** Cluster membership and trigger acquisition. */
    public static class Cluster {

        /**
         * Name of the cluster; nodes with the same name over the same database share their jobs.
         */
        private String name = "dsched";

        /**
         * How often a node records that it is alive; a node silent for this long plus a grace
         * period is considered dead and its work is recovered.
         */
        private Duration checkinInterval = Duration.ofSeconds(5);

        /** Longest time a node idles before it looks for due triggers again (at least 1s). */
        private Duration idleWait = Duration.ofSeconds(1);

        /** How late a fire may start before it counts as misfired and follows the misfire policy. */
        private Duration misfireThreshold = Duration.ofSeconds(60);

        public String getName() {
            return this.name;
        }

        public void setName(String name) {
            this.name = name;
        }

        public Duration getCheckinInterval() {
            return this.checkinInterval;
        }

        public void setCheckinInterval(Duration checkinInterval) {
            this.checkinInterval = checkinInterval;
        }

        public Duration getIdleWait() {
            return this.idleWait;
        }

        public void setIdleWait(Duration idleWait) {
            this.idleWait = idleWait;
        }

        public Duration getMisfireThreshold() {
            return this.misfireThreshold;
        }

        public void setMisfireThreshold(Duration misfireThreshold) {
            this.misfireThreshold = misfireThreshold;
        }
    }

    /** The overlap guard of jobs that must not run concurrently. */
    public static class Lock {

        /**
         * Default longest time a run holds its job's lock, even if its node dies; a job's own
         * lockAtMostFor wins.
         */
        private Duration atMostFor = Duration.ofMinutes(10);

        /** Default shortest time a run holds its job's lock; a job's own lockAtLeastFor wins. */
        private Duration atLeastFor = Duration.ZERO;

        public Duration getAtMostFor() {
            return this.atMostFor;
        }

        public void setAtMostFor(Duration atMostFor) {
            this.atMostFor = atMostFor;
        }

        public Duration getAtLeastFor() {
            return this.atLeastFor;
        }

        public void setAtLeastFor(Duration atLeastFor) {
            this.atLeastFor = atLeastFor;
        }
    }

    /** The database dsched stores its state in. */
    public static class Jdbc {

        /** When to create dsched's tables that are missing; existing tables are never dropped. */
        private DatabaseInitializationMode initializeSchema = DatabaseInitializationMode.EMBEDDED;

        /**
         * Platform of the schema script to apply (postgresql, mysql or h2); detected from the
         * DataSource when not set.
         */
        private String platform;

        public DatabaseInitializationMode getInitializeSchema() {
            return this.initializeSchema;
        }

        public void setInitializeSchema(DatabaseInitializationMode initializeSchema) {
            this.initializeSchema = initializeSchema;
        }

        public String getPlatform() {
            return this.platform;
        }

        public void setPlatform(String platform) {
            this.platform = platform;
        }
    }

    /** How annotation-declared jobs reach the shared store. */
    public static class Jobs {

        /**
         * Whether a node may re-apply a job definition that a newer deployment has already
         * replaced; turn on for a deliberate rollback.
         */
        private boolean reapplySuperseded = false;

        public boolean isReapplySuperseded() {
            return this.reapplySuperseded;
        }

        public void setReapplySuperseded(boolean reapplySuperseded) {
            this.reapplySuperseded = reapplySuperseded;
        }
    }

    /** How a node stops. */
    public static class Shutdown {

        /** Whether to let running jobs finish when the node stops. */
        private boolean waitForJobs = true;

        public boolean isWaitForJobs() {
            return this.waitForJobs;
        }

        public void setWaitForJobs(boolean waitForJobs) {
            this.waitForJobs = waitForJobs;
        }
    }
}
